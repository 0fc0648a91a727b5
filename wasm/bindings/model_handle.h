// The JS handle of a bare model, a lab::Seq2SeqModel (seq2seq_model_bindings.cpp) or a
// lab::TransformerModel (transformer_model_bindings.cpp): the model and nothing else, with the
// methods both offer JS (wasm/js/types/seq2seq-model.d.ts). What differs between the two models
// comes from `Api`, a struct of three static functions:
//   Api::architecture_from_js(js)         the model's config of the factory's JS object, its
//                                         keys checked, but for the vocabularies and the seed;
//   Api::outputs_to_js(out, model, batch) sets the teacher-forced outputs of `batch` on `out`
//                                         (logits, attention) without touching the gradients;
//   Api::adam_step(model, options)        one Adam step with the JS options object.
// Conversion only, as every binding: the checks and their messages are the core's.
#pragma once

#include <emscripten/bind.h>

#include "convert.h"
#include "seq2seq_convert.h"
#include "why_convert.h"

namespace labjs {

template <class Model, class Api>
class ModelHandle {
 public:
  template <class Config>
  explicit ModelHandle(const Config& config) : model_(config) {}

  emscripten::val paramNames() {
    return guarded([&] { return param_names_to_js(model_.param_views()); });
  }

  emscripten::val getParam(emscripten::val name) {
    return guarded([&] { return get_param_to_js(model_, name); });
  }

  emscripten::val setParam(emscripten::val name, emscripten::val value) {
    return guarded([&] {
      set_param_from_js(model_, name, value);
      return emscripten::val::undefined();
    });
  }

  // {loss, logits, attention?, grads}: the gradients of the batch, and the logits and attention
  // of the same (deterministic) teacher-forced pass.
  emscripten::val forwardBackward(emscripten::val batch_js) {
    return guarded([&] {
      const lab::Batch batch = checked_batch(batch_js);
      const float loss = model_.forward_backward(batch);
      const emscripten::val grads = params_by_name_to_js(model_.param_views(), model_.grads());
      emscripten::val out = emscripten::val::object();
      out.set("loss", emscripten::val(loss));
      Api::outputs_to_js(out, model_, batch);
      out.set("grads", grads);
      return out;
    });
  }

  emscripten::val loss(emscripten::val batch_js) {
    return guarded([&] { return emscripten::val(model_.loss_only(checked_batch(batch_js))); });
  }

  emscripten::val adamStep(emscripten::val options) {
    return guarded([&] {
      Api::adam_step(model_, options);  // the model validates the options
      return emscripten::val::undefined();
    });
  }

  emscripten::val clipGradNorm(emscripten::val max_norm) {
    return guarded(
        [&] { return emscripten::val(model_.clip_grad_norm(max_norm_from_js(max_norm))); });
  }

  // attribution({src, target, method?, steps?}) (why_convert.h): the model's own attention
  // beside each row (the Transformer's: the rollout onto the source, transformer/attribution.h).
  emscripten::val attribution(emscripten::val request) {
    return guarded([&] {
      const ModelAttributionRequest r = model_attribution_request_from_js(request);
      // unqualified: lab::attribute of the model, found by ADL
      return attribution_result_to_js(attribute(model_, r.src, r.target, r.options));
    });
  }

  // Registers the handle's class under `name` and its factory under `create` (inside an
  // EMSCRIPTEN_BINDINGS block). The factory gives the new handle or {error}: val(T&&) moves the
  // handle into a heap object whose JS handle owns it, and handle.delete() frees it.
  static void register_class(const char* name, const char* create) {
    using emscripten::val;
    emscripten::class_<ModelHandle>(name)
        .function("paramNames", &ModelHandle::paramNames)
        .function("getParam", &ModelHandle::getParam)
        .function("setParam", &ModelHandle::setParam)
        .function("forwardBackward", &ModelHandle::forwardBackward)
        .function("loss", &ModelHandle::loss)
        .function("adamStep", &ModelHandle::adamStep)
        .function("clipGradNorm", &ModelHandle::clipGradNorm)
        .function("attribution", &ModelHandle::attribution);
    emscripten::function(
        create, +[](val config) {
          return guarded([&] {
            auto c = Api::architecture_from_js(config);
            model_vocabularies_from_js(config, c);
            return val(ModelHandle(c));  // the model's constructor validates the config
          });
        });
  }

 private:
  // The batch, checked against this model's sizes and vocabularies (lab::validate_batch).
  lab::Batch checked_batch(const emscripten::val& js) const {
    lab::Batch b = batch_from_js(js);
    validate_batch(b, model_.config());  // unqualified: found by ADL where Model is complete
    return b;
  }

  Model model_;
};

}  // namespace labjs
