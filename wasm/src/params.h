// The parameter store every model shares (the Seq2Seq translator, the Transformer, the GPT): one
// float buffer holds every weight, and a table of named views (PyTorch state-dict keys and
// shapes) says where each one lies, so Adam is one loop and a state dict is the table.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "optim.h"

namespace lab {

// One named parameter inside the flat buffer (PyTorch state-dict key and shape).
struct ParamView {
  std::string name;
  std::vector<long> shape;
  long offset = 0;  // into params() / grads()
  long size = 0;
};

// - kMaxVocab, kMaxParams: 16 Mi parameters, because a model keeps params, grads, Adam m and v
//   and a 3·P Adam scratch, i.e. 7 floats per parameter, 448 MiB at this limit;
// - check_param_count: `count` (in double, so absurd sizes cannot overflow before being
//   rejected) within kMaxParams, else an InputError that ends with `advice`.
inline constexpr long kMaxVocab = 100000;
inline constexpr long kMaxParams = 1L << 24;
void check_param_count(double count, const char* advice);

// What every model is made of, as a torch.nn.Module holds its parameters: the flat buffer of
// every weight (P), a same-layout gradient buffer, the table of named views, Adam's state and
// scratch, and whether the gradients are those of a finite loss. Each model (Seq2SeqModel,
// TransformerModel, GptModel) derives from it, fills the table in its constructor and keeps
// only its own layout (offsets) and forward/backward.
class ParamStore {
 public:
  const std::vector<ParamView>& param_views() const { return table_; }
  long num_params() const { return static_cast<long>(params_.size()); }
  std::vector<float>& params() { return params_; }
  const std::vector<float>& params() const { return params_; }
  std::vector<float>& grads() { return grads_; }
  const std::vector<float>& grads() const { return grads_; }
  // The view `name`; InputError naming the model and its parameters for unknown names.
  const ParamView& param(const std::string& name) const;
  // Copies `values` (row-major, param(name).size floats, all finite) into the named parameter.
  void set_param(const std::string& name, const std::vector<float>& values);
  // Every parameter at once (P values in the table's order, the caller has checked them) and a
  // fresh Adam state: a model read from a file.
  void load_params(const std::vector<float>& values);

  // torch.nn.utils.clip_grad_norm_ over all gradients; returns the norm before clipping.
  // InputError unless the gradients are those of a forward_backward with a finite loss.
  float clip_grad_norm(float max_norm);
  const AdamState& adam_state() const { return adam_; }
  // Restores a saved optimiser state (resuming a run). Throws InputError unless both moments
  // have num_params() finite values, every second moment is >= 0 and the step is >= 0.
  void set_adam_state(AdamState state);

 protected:
  // `model` names the model in messages: "this <model> has no parameter …".
  explicit ParamStore(const char* model) : model_(model) {}

  // The view `name` of `shape` after the table's last one; returns its offset. Then, after the
  // last one, allocate_params: every weight and gradient 0, a fresh Adam state.
  long add_param(const std::string& name, std::vector<long> shape);
  void allocate_params();
  // Gradients 0 and not valid, a fresh Adam state: after new weights (an init, a file).
  void reset_optimizer();

  // A model's forward_backward: grads_valid_ ← false; loss = forward(); NonFiniteError if the
  // loss is NaN/Inf; backward(); grads_valid_ ← true; returns the loss.
  template <class Forward, class Backward>
  float forward_backward_with(const Forward& forward, const Backward& backward) {
    grads_valid_ = false;
    const float loss = forward();
    check_loss_finite(loss);
    backward();
    grads_valid_ = true;
    return loss;
  }
  // adam_update (optim.h) with the gradients (the caller has validated `options`), with a
  // specific message when their norm is not finite; given `grads_zeroed`, it is
  // adam_update_zeroing_grads, and *grads_zeroed says whether the gradients are now zeros.
  // InputError unless the gradients are those of a forward_backward with a finite loss.
  void step_adam(const AdamOptions& options, bool* grads_zeroed = nullptr);
  // step_adam, after which the gradients are spent: zeroed in the update's own pass (a training
  // loop's step), so that the next backward's clear_grads need not write them; they are no longer
  // valid (another step needs another forward_backward).
  void step_adam_consuming_grads(const AdamOptions& options);
  // Before a backward that adds into grads_: zero them, unless a consuming step left them zeros.
  void clear_grads();

  std::vector<ParamView> table_;
  std::vector<float> params_, grads_;  // (P), same layout
  AdamState adam_;
  AdamScratch adam_scratch_;  // 3 × (P), swapped with params_ and adam_ by a checked step
  bool grads_valid_ = false;  // true once a forward_backward has given a finite loss's gradients
  bool grads_zero_ = false;   // grads_ is known to be all zeros (clear_grads skips them)

 private:
  const char* model_;
};

// Keeps a model's parameter gradients (and whether they are valid) aside while it lives and puts
// them back when it goes, whatever happens: attribution runs the training backward pass, and the
// gradients belong to training. Both translators' source_embedding_gradient hold one.
class GradientsKeptAside {
 public:
  GradientsKeptAside(std::vector<float>& grads, bool& valid)
      : grads_(grads), valid_(valid), kept_(grads), kept_valid_(valid) {}
  GradientsKeptAside(const GradientsKeptAside&) = delete;
  GradientsKeptAside& operator=(const GradientsKeptAside&) = delete;
  ~GradientsKeptAside() {
    grads_.swap(kept_);
    valid_ = kept_valid_;
  }

 private:
  std::vector<float>& grads_;
  bool& valid_;
  std::vector<float> kept_;
  bool kept_valid_;
};

}  // namespace lab
