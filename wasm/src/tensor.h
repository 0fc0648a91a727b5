// Tensors and the checks every layer uses on them.
//
// Dimension letters, used in shape comments throughout the core. They are defined here only:
// every other file uses them with these meanings and defines no letter of its own.
//   B  batch                 N  query positions        M  key/value positions
//   D  query/key features    Dk key features (when it differs from D)
//   Dv value features        H  heads                  Dh head size (D / H)
//   A  additive-score hidden size
//   R  rows of a 2-D op      C  columns of a 2-D op (the softmax axis; an embedding's width)
//   I  linear inputs         O  linear outputs
//   V  vocabulary size; Vs of the source, Vt of the target
//   S  source length. A recurrent cell (rnn/cells.h) calls the steps of one run S: the
//      encoder runs it over the S source steps, the decoder over the T target steps.
//   T  target length: the decoder's steps (an embedding op counts the ids it looks up as T)
//   E  embedding size        Hd hidden size of a recurrent cell
//   G  gates per cell (RNN 1, GRU 3, LSTM 4)
//   F  features entering the Seq2Seq output layer (Hd, or 2·Hd with attention and no tanh layer)
//   L  layers of a Transformer stack   Dm Transformer model size   Dff its feed-forward size
//   P  number of parameters
//
// Storage is row-major float32, batch first, exactly as PyTorch lays out a contiguous tensor,
// so a PyTorch state dict can be copied in without transposes.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lab {

// Every error the core reports for bad input. The bindings turn it into a JS Error carrying
// `what()`, so the message must name the argument and the problem. An error that a page words in
// its reader's language also has a `code` and the numbers its message names (`details`): the JS
// Error carries them as `code` and `details`, so the page never parses English.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
  InputError(const std::string& message, std::string code,
             std::vector<std::pair<std::string, long>> details)
      : std::invalid_argument(message), code(std::move(code)), details(std::move(details)) {}

  std::string code;                                   // "" for a message only
  std::vector<std::pair<std::string, long>> details;  // e.g. {"count", 70}, {"limit", 64}
};

// A computed value (not an input) that overflowed float32: check_finite_result's error. To a
// caller of the attention API it is bad input like any other (inputs too large); a training step,
// whose batch and weights were already checked, reads it as the run diverging.
struct OverflowError : InputError {
  using InputError::InputError;
};

using MatR = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MapR = Eigen::Map<MatR>;
using CMapR = Eigen::Map<const MatR>;
using VecF = Eigen::VectorXf;
using MapV = Eigen::Map<Eigen::VectorXf>;
using CMapV = Eigen::Map<const Eigen::VectorXf>;
using RowV = Eigen::Matrix<float, 1, Eigen::Dynamic>;
using MapRowV = Eigen::Map<RowV>;
using CMapRowV = Eigen::Map<const RowV>;

// Upper bounds on any one dimension and on the elements of one tensor: they keep absurd
// requests (a typo, a hostile URL) from allocating gigabytes before anything can fail.
constexpr long kMaxDim = 1 << 20;
constexpr long kMaxElements = 1L << 26;  // 64 Mi floats = 256 MiB

struct Tensor {
  std::vector<long> shape;
  std::vector<float> data;

  Tensor() = default;
  Tensor(std::vector<long> s, float fill = 0.0f);
  Tensor(std::vector<long> s, std::vector<float> d);

  long dim(int axis) const;  // negative axes count from the end
  int rank() const { return static_cast<int>(shape.size()); }
  long size() const { return static_cast<long>(data.size()); }
  float* ptr() { return data.data(); }
  const float* ptr() const { return data.data(); }
  void zero();
  bool empty() const { return shape.empty() && data.empty(); }
};

// Product of a shape; throws InputError if a dimension is negative or too large.
long shape_numel(const std::vector<long>& shape, const std::string& name);
std::string shape_str(const std::vector<long>& shape);
// Throws InputError if an intermediate of this shape (e.g. the (B, N, M) attention matrix) would
// exceed the element limit; `what` names it in the message.
void check_work_size(const std::vector<long>& shape, const std::string& what);

// Validation helpers. `name` is the user-facing argument name ("query", "params.wq").
void check_rank(const Tensor& t, int rank, const std::string& name, const char* layout);
void check_shape(const Tensor& t, const std::vector<long>& shape, const std::string& name);
void check_finite(const Tensor& t, const std::string& name);
void check_nonempty(const Tensor& t, const std::string& name);
// A size or count: throws InputError("<what> must be in [lo, hi] (got value)") outside.
void check_range(long value, long lo, long hi, const std::string& what);
// For computed values: throws OverflowError("<what> overflow float32: <advice>") if any is NaN/Inf.
void check_finite_result(const Tensor& t, const char* what, const char* advice);

}  // namespace lab
