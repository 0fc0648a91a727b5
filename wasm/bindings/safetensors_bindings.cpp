// embind surface of the PyTorch interchange (wasm/src/seq2seq/interchange.h): import a
// .safetensors translator, inspect and decode it, export it or a training session. Conversion
// only; every check and message is the core's. Errors come back as {error} (guarded), which
// wasm/js/safetensors.mjs rethrows as a JS Error. Only the full module has this file (the JSON
// and file code behind it); CMakeLists.txt leaves it out of the widget modules.
//
// Ownership: importSafetensors hands JS a new C++ object; the JS wrapper (ImportedSeq2Seq in
// wasm/js/safetensors.mjs) owns it and must call .delete() exactly once.
#include <emscripten/bind.h>

#include <string>
#include <utility>
#include <vector>

#include "convert.h"
#include "seq2seq/interchange.h"
#include "seq2seq_convert.h"
#include "seq2seq_handle.h"
#include "transformer/interchange.h"
#include "transformer_trace.h"
#include "why_convert.h"

using emscripten::val;
using labjs::guarded;

namespace {

// The same fields as Seq2Seq.translate (shared/types/seq2seq.d.ts).
val translation_to_js(const lab::FileVocab& vocab, const lab::TranslateResult& r) {
  const labjs::TokenName token = labjs::token_names(vocab);
  val out = labjs::translation_to_js(token, r.source, r.output, r.text, r.finished);
  if (r.beam_width == 0) {
    labjs::set_greedy_translation_to_js(out, token, r);
  } else {
    out.set("beams", labjs::beam_trace_to_js(token, r.beam, r.hypothesis_texts, r.beam_width));
  }
  return out;
}

lab::StateDictNames names_from_js(const val& names) {
  if (labjs::is_absent(names)) return lab::StateDictNames::kProject;
  return lab::parse_state_dict_names(labjs::js_text(names, "names"));
}

class InterchangeHandle {
 public:
  explicit InterchangeHandle(lab::InterchangeModel model) : model_(std::move(model)) {}

  val translate(val text_js, val options) {
    return guarded([&] {
      const std::string text = labjs::js_text(text_js, "text");
      return translation_to_js(
          model_.target_vocab(),
          model_.translate(text, labjs::translate_options_with_interventions_from_js(options)));
    });
  }

  val teacherForced(val source_js, val target_js) {
    return guarded([&] {
      const lab::TeacherForced r = model_.teacher_forced(labjs::js_text(source_js, "source"),
                                                         labjs::js_text(target_js, "target"));
      val out = val::object();
      out.set("sourceIds", labjs::ids_to_js(r.source_ids));
      out.set("targetIn", labjs::ids_to_js(r.target_in));
      out.set("targetOut", labjs::ids_to_js(r.target_out));
      out.set("logits", labjs::tensor_to_js(r.logits));
      out.set("attention", r.attention.size() ? labjs::tensor_to_js(r.attention) : val::null());
      return out;
    });
  }

  val info() {
    return guarded([&] {
      const lab::InterchangeConfig& c = model_.config();
      val out = val::object();
      out.set("format", val(std::string("safetensors")));
      out.set("arch", val(std::string("seq2seq")));
      out.set("cell", val(std::string(lab::cell_name(c.cell))));
      out.set("hidden", val(static_cast<double>(c.hidden)));
      out.set("embedding", val(static_cast<double>(model_.model().config().embedding_size())));
      out.set("attention", val(c.attention));
      out.set("score", val(std::string(lab::score_name(c.score))));
      out.set("attentionalTanh", val(c.attentional_tanh));
      out.set("tokenizer", val(std::string(lab::tokenizer_name(c.tokenizer))));
      out.set("sourceTokenizer", val(std::string(lab::tokenizer_name(c.tokenizer))));
      out.set("targetTokenizer", val(std::string(lab::tokenizer_name(c.tokenizer))));
      out.set("names", val(std::string(lab::state_dict_names_name(model_.names()))));
      out.set("sourceVocabSize", val(static_cast<double>(model_.source_vocab().size())));
      out.set("targetVocabSize", val(static_cast<double>(model_.target_vocab().size())));
      out.set("parameterCount", val(static_cast<double>(model_.model().num_params())));
      val metadata = val::object();
      for (const auto& [key, value] : model_.extra_metadata()) metadata.set(key, val(value));
      out.set("metadata", metadata);
      return out;
    });
  }

  val sourceVocabulary() {
    return guarded([&] { return labjs::strings_to_js(model_.source_vocab().tokens()); });
  }
  val targetVocabulary() {
    return guarded([&] { return labjs::strings_to_js(model_.target_vocab().tokens()); });
  }

  // [{name, shape, data}] under the core's names (out.weight), in the flat buffer's order.
  val params() {
    return guarded([&] {
      val a = val::array();
      for (const lab::ParamView& v : model_.model().param_table()) {
        val o = val::object();
        o.set("name", val(v.name));
        o.set("tensor", labjs::param_to_js(v, model_.model().params()));
        a.call<void>("push", o);
      }
      return a;
    });
  }

  val save(val names) {
    return guarded([&] { return labjs::bytes_to_js(model_.write(names_from_js(names))); });
  }

 private:
  lab::InterchangeModel model_;
};

// A Transformer read from .safetensors: the same methods as InterchangeHandle.
class TransformerInterchangeHandle {
 public:
  explicit TransformerInterchangeHandle(lab::TransformerInterchange model)
      : model_(std::move(model)) {}

  val translate(val text_js, val options) {
    return guarded([&] {
      const std::string text = labjs::js_text(text_js, "text");
      const lab::TransformerTranslateResult r =
          model_.translate(text, labjs::translate_options_from_js(options));
      return labjs::transformer_translation_to_js(labjs::token_names(model_.target_vocab()), r,
                                                  model_.config().layers, model_.config().heads);
    });
  }

  val teacherForced(val source_js, val target_js) {
    return guarded([&] {
      const lab::TeacherForced r = model_.teacher_forced(labjs::js_text(source_js, "source"),
                                                         labjs::js_text(target_js, "target"));
      val out = val::object();
      out.set("sourceIds", labjs::ids_to_js(r.source_ids));
      out.set("targetIn", labjs::ids_to_js(r.target_in));
      out.set("targetOut", labjs::ids_to_js(r.target_out));
      out.set("logits", labjs::tensor_to_js(r.logits));
      out.set("attention", val::null());
      return out;
    });
  }

  val info() {
    return guarded([&] {
      const lab::TransformerInterchangeConfig& c = model_.config();
      val out = val::object();
      out.set("format", val(std::string("safetensors")));
      out.set("arch", val(std::string("transformer")));
      out.set("layers", val(static_cast<double>(c.layers)));
      out.set("heads", val(static_cast<double>(c.heads)));
      out.set("dModel", val(static_cast<double>(c.d_model)));
      out.set("dFF", val(static_cast<double>(c.d_ff)));
      out.set("normFirst", val(c.norm_first));
      out.set("tokenizer", val(std::string(lab::tokenizer_name(c.tokenizer))));
      out.set("sourceTokenizer", val(std::string(lab::tokenizer_name(c.tokenizer))));
      out.set("targetTokenizer", val(std::string(lab::tokenizer_name(c.tokenizer))));
      out.set("names", val(std::string("project")));
      out.set("sourceVocabSize", val(static_cast<double>(model_.source_vocab().size())));
      out.set("targetVocabSize", val(static_cast<double>(model_.target_vocab().size())));
      out.set("parameterCount", val(static_cast<double>(model_.model().num_params())));
      val metadata = val::object();
      for (const auto& [key, value] : model_.extra_metadata()) metadata.set(key, val(value));
      out.set("metadata", metadata);
      return out;
    });
  }

  val sourceVocabulary() {
    return guarded([&] { return labjs::strings_to_js(model_.source_vocab().tokens()); });
  }
  val targetVocabulary() {
    return guarded([&] { return labjs::strings_to_js(model_.target_vocab().tokens()); });
  }

  val params() {
    return guarded([&] {
      val a = val::array();
      for (const lab::ParamView& v : model_.model().param_views()) {
        val o = val::object();
        o.set("name", val(v.name));
        o.set("tensor", labjs::param_to_js(v, model_.model().params()));
        a.call<void>("push", o);
      }
      return a;
    });
  }

  val save(val names) {
    return guarded([&] {
      if (names_from_js(names) != lab::StateDictNames::kProject) {
        throw lab::InputError(
            "a Transformer has one naming, the reference module's: names 'book' is for the "
            "book's recurrent translator");
      }
      return labjs::bytes_to_js(model_.write());
    });
  }

 private:
  lab::TransformerInterchange model_;
};

val import_safetensors_js(val bytes) {
  return guarded([&] {
    const std::vector<uint8_t> data = labjs::bytes_from_js(bytes, "loadSeq2Seq()");
    const lab::SafetensorsFile file = lab::read_safetensors(data.data(), data.size());
    if (lab::is_transformer_interchange(file)) {
      return val(TransformerInterchangeHandle(lab::TransformerInterchange::read(file)));
    }
    return val(InterchangeHandle(lab::InterchangeModel::read(file)));
  });
}

val export_safetensors_js(labjs::Seq2SeqHandle& handle, val names) {
  return guarded([&] {
    return labjs::bytes_to_js(lab::export_safetensors(handle.session(), names_from_js(names)));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_safetensors) {
  emscripten::class_<InterchangeHandle>("ImportedSeq2Seq")
      .function("translate", &InterchangeHandle::translate)
      .function("teacherForced", &InterchangeHandle::teacherForced)
      .function("info", &InterchangeHandle::info)
      .function("sourceVocabulary", &InterchangeHandle::sourceVocabulary)
      .function("targetVocabulary", &InterchangeHandle::targetVocabulary)
      .function("params", &InterchangeHandle::params)
      .function("save", &InterchangeHandle::save);
  emscripten::class_<TransformerInterchangeHandle>("ImportedTransformer")
      .function("translate", &TransformerInterchangeHandle::translate)
      .function("teacherForced", &TransformerInterchangeHandle::teacherForced)
      .function("info", &TransformerInterchangeHandle::info)
      .function("sourceVocabulary", &TransformerInterchangeHandle::sourceVocabulary)
      .function("targetVocabulary", &TransformerInterchangeHandle::targetVocabulary)
      .function("params", &TransformerInterchangeHandle::params)
      .function("save", &TransformerInterchangeHandle::save);
  emscripten::function("importSafetensors", &import_safetensors_js);
  emscripten::function("exportSeq2SeqSafetensors", &export_safetensors_js);
}
