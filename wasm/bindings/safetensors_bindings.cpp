// embind surface of the PyTorch interchange (wasm/src/rnn/interchange.h): import a
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
#include "rnn/interchange.h"
#include "seq2seq_convert.h"
#include "seq2seq_handle.h"
#include "transformer/interchange.h"
#include "transformer_trace.h"
#include "why_convert.h"

using emscripten::val;
using labjs::guarded;

namespace {

// The same fields as Seq2Seq.translate (wasm/js/types/seq2seq.d.ts).
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

// The handle of a translator read from .safetensors, `Model` a lab::InterchangeModel or a
// lab::TransformerInterchange. What differs between the two comes from `Api`, a struct of static
// functions:
//   Api::translate(model, text, options)  the translation's JS object;
//   Api::config_to_js(out, model)         sets "arch" and the architecture's config fields;
//   Api::names(model)                     how the file named its output layer;
//   Api::table(model)                     the model's parameter table;
//   Api::write(model, names)              the .safetensors bytes under `names`.
template <class Model, class Api>
class ImportedHandle {
 public:
  explicit ImportedHandle(Model model) : model_(std::move(model)) {}

  val translate(val text_js, val options) {
    return guarded(
        [&] { return Api::translate(model_, labjs::js_text(text_js, "text"), options); });
  }

  // {sourceIds, targetIn, targetOut, logits, attention}: attention null where the model has no
  // single cross-attention row per step (no attention, or a Transformer).
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
      const std::string tokenizer = lab::tokenizer_name(model_.config().tokenizer);
      val out = val::object();
      out.set("format", val(std::string("safetensors")));
      Api::config_to_js(out, model_);
      out.set("tokenizer", val(tokenizer));
      out.set("sourceTokenizer", val(tokenizer));
      out.set("maxSourceTokens", val(static_cast<double>(lab::kDefaultMaxTokens)));
      out.set("targetTokenizer", val(tokenizer));
      out.set("names", val(std::string(lab::state_dict_names_name(Api::names(model_)))));
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
      for (const lab::ParamView& v : Api::table(model_)) {
        val o = val::object();
        o.set("name", val(v.name));
        o.set("tensor", labjs::param_to_js(v, model_.model().params()));
        a.call<void>("push", o);
      }
      return a;
    });
  }

  val save(val names) {
    return guarded([&] { return labjs::bytes_to_js(Api::write(model_, names_from_js(names))); });
  }

  // Registers the handle's class under `name` (inside an EMSCRIPTEN_BINDINGS block).
  static void register_class(const char* name) {
    emscripten::class_<ImportedHandle>(name)
        .function("translate", &ImportedHandle::translate)
        .function("teacherForced", &ImportedHandle::teacherForced)
        .function("info", &ImportedHandle::info)
        .function("sourceVocabulary", &ImportedHandle::sourceVocabulary)
        .function("targetVocabulary", &ImportedHandle::targetVocabulary)
        .function("params", &ImportedHandle::params)
        .function("save", &ImportedHandle::save);
  }

 private:
  Model model_;
};

struct RecurrentApi {
  static val translate(lab::InterchangeModel& m, const std::string& text, const val& options) {
    return translation_to_js(
        m.target_vocab(),
        m.translate(text, labjs::translate_options_with_interventions_from_js(options)));
  }
  static void config_to_js(val& out, const lab::InterchangeModel& m) {
    const lab::InterchangeConfig& c = m.config();
    out.set("arch", val(std::string("rnn")));
    out.set("cell", val(std::string(lab::cell_name(c.cell))));
    out.set("hidden", val(static_cast<double>(c.hidden)));
    out.set("embedding", val(static_cast<double>(m.model().config().embedding_size())));
    out.set("attention", val(c.attention));
    out.set("score", val(std::string(lab::score_name(c.score))));
    out.set("attentionalTanh", val(c.attentional_tanh));
  }
  static lab::StateDictNames names(const lab::InterchangeModel& m) { return m.names(); }
  static const std::vector<lab::ParamView>& table(const lab::InterchangeModel& m) {
    return m.model().param_views();
  }
  static std::vector<uint8_t> write(const lab::InterchangeModel& m, lab::StateDictNames names) {
    return m.write(names);
  }
};
using InterchangeHandle = ImportedHandle<lab::InterchangeModel, RecurrentApi>;

struct TransformerApi {
  static val translate(lab::TransformerInterchange& m, const std::string& text,
                       const val& options) {
    const lab::TransformerTranslateResult r =
        m.translate(text, labjs::translate_options_from_js(options));
    return labjs::transformer_translation_to_js(labjs::token_names(m.target_vocab()), r,
                                                m.config().layers, m.config().heads);
  }
  static void config_to_js(val& out, const lab::TransformerInterchange& m) {
    const lab::TransformerInterchangeConfig& c = m.config();
    out.set("arch", val(std::string("transformer")));
    out.set("layers", val(static_cast<double>(c.layers)));
    out.set("heads", val(static_cast<double>(c.heads)));
    out.set("dModel", val(static_cast<double>(c.d_model)));
    out.set("dFF", val(static_cast<double>(c.d_ff)));
    out.set("normFirst", val(c.norm_first));
  }
  // One naming, the reference module's.
  static lab::StateDictNames names(const lab::TransformerInterchange&) {
    return lab::StateDictNames::kProject;
  }
  static const std::vector<lab::ParamView>& table(const lab::TransformerInterchange& m) {
    return m.model().param_views();
  }
  static std::vector<uint8_t> write(const lab::TransformerInterchange& m,
                                    lab::StateDictNames names) {
    if (names != lab::StateDictNames::kProject) {
      throw lab::InputError(
          "a Transformer has one naming, the reference module's: names 'book' is for the "
          "book's recurrent translator");
    }
    return m.write();
  }
};
using TransformerInterchangeHandle = ImportedHandle<lab::TransformerInterchange, TransformerApi>;

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
  InterchangeHandle::register_class("ImportedSeq2Seq");
  TransformerInterchangeHandle::register_class("ImportedTransformer");
  emscripten::function("importSafetensors", &import_safetensors_js);
  emscripten::function("exportSeq2SeqSafetensors", &export_safetensors_js);
}
