#include "tensor.h"

#include <algorithm>
#include <cmath>

namespace lab {

Tensor::Tensor(std::vector<long> s, float fill) : shape(std::move(s)) {
  data.assign(static_cast<size_t>(shape_numel(shape, "tensor")), fill);
}

Tensor::Tensor(std::vector<long> s, std::vector<float> d)
    : shape(std::move(s)), data(std::move(d)) {
  long n = shape_numel(shape, "tensor");
  if (n != static_cast<long>(data.size())) {
    throw InputError("tensor has " + std::to_string(data.size()) + " values but shape " +
                     shape_str(shape) + " needs " + std::to_string(n));
  }
}

long Tensor::dim(int axis) const {
  int r = rank();
  int a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) throw InputError("axis " + std::to_string(axis) + " out of range");
  return shape[static_cast<size_t>(a)];
}

void Tensor::zero() {
  std::fill(data.begin(), data.end(), 0.0f);
}

std::string shape_str(const std::vector<long>& shape) {
  // std::to_string, not a string stream: streams would link libc++'s whole locale machinery
  // (~95 KB of wasm) into a module that only ever formats integers.
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

long shape_numel(const std::vector<long>& shape, const std::string& name) {
  // `long` is 32-bit in wasm32: test each factor against the limit before multiplying, so a
  // hostile shape can never overflow the count.
  long n = 1;
  for (long d : shape) {
    if (d < 0) throw InputError(name + " has a negative dimension in shape " + shape_str(shape));
    if (d > kMaxDim) {
      throw InputError(name + " dimension " + std::to_string(d) + " exceeds the limit of " +
                       std::to_string(kMaxDim));
    }
    if (d != 0 && n > kMaxElements / d) {
      throw InputError(name + " shape " + shape_str(shape) + " exceeds the limit of " +
                       std::to_string(kMaxElements) + " elements");
    }
    n *= d;
  }
  return n;
}

void check_work_size(const std::vector<long>& shape, const std::string& what) {
  shape_numel(shape, what);
}

void check_rank(const Tensor& t, int rank, const std::string& name, const char* layout) {
  if (t.rank() != rank) {
    throw InputError(name + " must have " + std::to_string(rank) + " dimensions " + layout +
                     " but has shape " + shape_str(t.shape));
  }
}

void check_shape(const Tensor& t, const std::vector<long>& shape, const std::string& name) {
  if (t.shape != shape) {
    throw InputError(name + " must have shape " + shape_str(shape) + " but has shape " +
                     shape_str(t.shape));
  }
}

void check_finite(const Tensor& t, const std::string& name) {
  for (size_t i = 0; i < t.data.size(); ++i) {
    if (!std::isfinite(t.data[i])) {
      throw InputError(name + " contains " + (std::isnan(t.data[i]) ? "NaN" : "an infinite value") +
                       " at flat index " + std::to_string(i));
    }
  }
}

void check_finite_result(const Tensor& t, const char* what, const char* advice) {
  for (float v : t.data) {
    if (!std::isfinite(v)) throw OverflowError(std::string(what) + " overflow float32: " + advice);
  }
}

void check_range(long value, long lo, long hi, const std::string& what) {
  if (value < lo || value > hi) {
    throw InputError(what + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "] (got " + std::to_string(value) + ")");
  }
}

void check_nonempty(const Tensor& t, const std::string& name) {
  for (long d : t.shape) {
    if (d == 0) throw InputError(name + " is empty (shape " + shape_str(t.shape) + ")");
  }
}

}  // namespace lab
