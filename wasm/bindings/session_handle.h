// The JS handle of a trained translator: a lab::TranslatorSession and nothing else, with the same
// methods and result fields for every model (wasm/js/types/seq2seq.d.ts), so that
// wasm/js/seq2seq.mjs wraps them all in one class. What differs between the models comes from
// `Api`, a struct of its model's binding (seq2seq_bindings.cpp, transformer_session_bindings.cpp):
//   Api::kArch                             info().arch: 'rnn', 'transformer';
//   Api::kModule                           the widget module that binds the model ('seq2seq',
//                                          'transformer'), named where it has no interventions;
//   Api::kAlignment                        whether evaluate() gives the attention's alignment;
//   Api::config_from_js(js)                the session config of create's JS object;
//   Api::architecture_to_js(out, session)  info()'s fields of the model's architecture;
//   Api::translation_to_js(token, r, session)  a plain translation's JS object.
// The model files (save_session_js, load_session_js) and the interventions (intervened_translate,
// why_bindings.h) are bound by files of their own, which the widgets' modules leave out.
// Conversion only, as every binding: the checks and their messages are the core's.
#pragma once

#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "convert.h"
#include "seq2seq_convert.h"

namespace labjs {

template <class Session, class Api>
class SessionHandle {
 public:
  using SessionType = Session;

  explicit SessionHandle(Session session) : session_(std::move(session)) {}

  emscripten::val train(emscripten::val steps) {
    return guarded([&] { return train_to_js(steps, [&](long n) { return session_.train(n); }); });
  }

  emscripten::val evaluate(emscripten::val options) {
    using emscripten::val;
    return guarded([&] {
      const lab::EvalResult r = session_.evaluate(eval_options_from_js(options));
      val out = eval_result_to_js(r);
      if (Api::kAlignment) {
        out.set("alignmentAccuracy",
                r.alignment_accuracy ? val(*r.alignment_accuracy) : val::null());
        out.set("alignedTokens", number(r.aligned_tokens));
      }
      return out;
    });
  }

  // translate(text, options): with interventions, intervened_translate's (set by the model's
  // why bindings in the modules that link them, the full one); elsewhere asking for them is an
  // error that names the module.
  emscripten::val translate(emscripten::val text_js, emscripten::val options) {
    return guarded([&] {
      const std::string text = js_text(text_js, "text");
      if (intervened_translate && asks_interventions(options)) {
        return intervened_translate(session_, text, options);
      }
      const auto r =
          session_.translate(text, plain_translate_options_from_js(options, Api::kModule));
      return Api::translation_to_js(token_names(session_.task().target_vocab()), r, session_);
    });
  }

  emscripten::val info() {
    using emscripten::val;
    return guarded([&] {
      const auto& c = session_.config();
      const lab::Task& task = session_.task();
      val out = val::object();
      out.set("arch", val(std::string(Api::kArch)));
      out.set("task", val(c.task));
      out.set("taskOptions", task_options_to_js(c.task_options, task));
      Api::architecture_to_js(out, session_);
      set_pairs_info(out, c.task_options, task);
      set_training_info(out, c.seed, c.batch_size, c.learning_rate, c.clip_norm, task,
                        session_.max_source_tokens(), session_.model().num_params(),
                        session_.step());
      return out;
    });
  }

  emscripten::val sourceVocabulary() {
    return guarded([&] { return strings_to_js(session_.source_vocabulary()); });
  }

  emscripten::val targetVocabulary() {
    return guarded([&] { return strings_to_js(session_.target_vocabulary()); });
  }

  // The first `count` held-out examples: {source, target, alignment} (each target token's aligned
  // source token indices).
  emscripten::val heldOut(emscripten::val count_js) {
    using emscripten::val;
    return guarded([&] {
      const std::vector<lab::Example>& all = session_.task().held_out();
      const long count = js_whole(count_js, "heldOut(count): count");
      if (count < 1) throw lab::InputError("heldOut(count): count must be at least 1");
      val out = val::array();
      for (size_t i = 0; i < all.size() && static_cast<long>(i) < count; ++i) {
        val alignment = val::array();
        for (const std::vector<int32_t>& aligned : all[i].alignment) {
          val row = val::array();
          for (int32_t s : aligned) row.call<void>("push", val(s));
          alignment.call<void>("push", row);
        }
        val o = val::object();
        o.set("source", val(all[i].source));
        o.set("target", val(all[i].target));
        o.set("alignment", alignment);
        out.call<void>("push", o);
      }
      return out;
    });
  }

  const Session& session() const { return session_; }
  Session& session() { return session_; }

  // Registers the handle's class under `name` and its factory under `create` (inside an
  // EMSCRIPTEN_BINDINGS block). The factory gives the new handle or {error}: val(T&&) moves the
  // handle into a heap object whose JS handle owns it, and handle.delete() frees it.
  static void register_class(const char* name, const char* create) {
    using emscripten::val;
    emscripten::class_<SessionHandle>(name)
        .function("train", &SessionHandle::train)
        .function("evaluate", &SessionHandle::evaluate)
        .function("translate", &SessionHandle::translate)
        .function("info", &SessionHandle::info)
        .function("sourceVocabulary", &SessionHandle::sourceVocabulary)
        .function("targetVocabulary", &SessionHandle::targetVocabulary)
        .function("heldOut", &SessionHandle::heldOut);
    emscripten::function(
        create, +[](val config) {
          return guarded([&] { return val(SessionHandle(Session(Api::config_from_js(config)))); });
        });
  }

  // translate(text, {interventions, …}) in the modules that link the model's why bindings.
  static emscripten::val (*intervened_translate)(Session& session, const std::string& text,
                                                 const emscripten::val& options);

 private:
  Session session_;
};

template <class Session, class Api>
emscripten::val (*SessionHandle<Session, Api>::intervened_translate)(
    Session&, const std::string&, const emscripten::val&) = nullptr;

// saveSeq2Seq / saveTransformer: the session as .atlb bytes (a copy out of wasm memory).
template <class Handle>
emscripten::val save_session_js(Handle& handle) {
  return guarded([&] { return bytes_to_js(handle.session().save()); });
}

// loadSeq2Seq (lab.loadSeq2Seq reads every model's file): a new handle that JS owns, or {error}.
template <class Handle>
emscripten::val load_session_js(emscripten::val bytes) {
  return guarded([&] {
    return emscripten::val(
        Handle(Handle::SessionType::load(bytes_from_js(bytes, "loadSeq2Seq()"))));
  });
}

}  // namespace labjs
