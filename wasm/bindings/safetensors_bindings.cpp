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
#include "seq2seq_handle.h"

using emscripten::val;
using labjs::guarded;

namespace {

val tokens_to_js(const lab::FileVocab& vocab, const std::vector<int32_t>& ids) {
  val a = val::array();
  for (int32_t id : ids) a.call<void>("push", val(vocab.token(id)));
  return a;
}

val ids_to_js(const std::vector<int32_t>& ids) {
  val a = val::array();
  for (int32_t id : ids) a.call<void>("push", val(id));
  return a;
}

val top_to_js(const lab::FileVocab& vocab, const std::vector<lab::TokenProb>& top) {
  val a = val::array();
  for (const lab::TokenProb& t : top) {
    val o = val::object();
    o.set("token", val(vocab.token(t.id)));
    o.set("prob", val(t.prob));
    a.call<void>("push", o);
  }
  return a;
}

// The same fields as Seq2Seq.translate (shared/types/seq2seq.d.ts).
val translation_to_js(const lab::FileVocab& vocab, const lab::TranslateResult& r) {
  val source = val::array();
  for (const lab::SourceToken& t : r.source) {
    val s = val::object();
    s.set("token", val(t.token));
    s.set("text", val(t.text));
    s.set("id", val(t.id));
    s.set("unknown", val(t.unknown));
    source.call<void>("push", s);
  }
  val out = val::object();
  out.set("source", source);
  out.set("output", tokens_to_js(vocab, r.output));
  out.set("text", val(r.text));
  out.set("finished", val(r.finished));
  if (r.beam_width == 0) {
    val steps = val::array();
    for (const lab::GreedyStep& s : r.greedy.steps) {
      val o = val::object();
      o.set("token", val(vocab.token(s.token)));
      o.set("prob", val(s.prob));
      o.set("top", top_to_js(vocab, s.top));
      o.set("attention", labjs::float_array_to_js(s.attention));
      steps.call<void>("push", o);
    }
    out.set("steps", steps);
    return out;
  }
  val hypotheses = val::array();
  for (size_t i = 0; i < r.beam.hypotheses.size(); ++i) {
    const lab::BeamHypothesis& h = r.beam.hypotheses[i];
    val o = val::object();
    o.set("output", tokens_to_js(vocab, h.tokens));
    o.set("text", val(r.hypothesis_texts[i]));
    o.set("logProb", val(h.log_prob));
    o.set("score", val(h.score));
    o.set("finished", val(h.finished));
    o.set("step", val(static_cast<double>(h.step)));
    o.set("node", val(static_cast<double>(h.node)));
    hypotheses.call<void>("push", o);
  }
  val tree = val::array();
  for (const std::vector<lab::BeamNode>& nodes : r.beam.steps) {
    val row = val::array();
    for (const lab::BeamNode& n : nodes) {
      val o = val::object();
      o.set("token", val(vocab.token(n.token)));
      o.set("parent", val(static_cast<double>(n.parent)));
      o.set("prob", val(n.prob));
      o.set("logProb", val(n.log_prob));
      o.set("score", val(n.score));
      o.set("finished", val(n.finished));
      o.set("top", top_to_js(vocab, n.top));
      o.set("attention", labjs::float_array_to_js(n.attention));
      row.call<void>("push", o);
    }
    tree.call<void>("push", row);
  }
  val beams = val::object();
  beams.set("width", val(static_cast<double>(r.beam_width)));
  beams.set("hypotheses", hypotheses);
  beams.set("steps", tree);
  out.set("beams", beams);
  return out;
}

val strings_to_js(const std::vector<std::string>& strings) {
  val a = val::array();
  for (const std::string& s : strings) a.call<void>("push", val(s));
  return a;
}

lab::StateDictNames names_from_js(const val& names) {
  if (names.isUndefined() || names.isNull()) return lab::StateDictNames::kProject;
  return lab::parse_state_dict_names(labjs::js_text(names, "names"));
}

class InterchangeHandle {
 public:
  explicit InterchangeHandle(lab::InterchangeModel model) : model_(std::move(model)) {}

  val translate(val text_js, val options) {
    return guarded([&] {
      const std::string text = labjs::js_text(text_js, "text");
      labjs::check_keys(options, {"beam", "maxLength", "topK"}, "translate options");
      lab::TranslateOptions o;
      o.beam = labjs::js_whole(options, "beam", "beam");
      o.max_length = labjs::js_whole(options, "maxLength", "maxLength");
      o.top_k = labjs::js_whole(options, "topK", "topK");
      return translation_to_js(model_.target_vocab(), model_.translate(text, o));
    });
  }

  val teacherForced(val source_js, val target_js) {
    return guarded([&] {
      const lab::TeacherForced r = model_.teacher_forced(labjs::js_text(source_js, "source"),
                                                         labjs::js_text(target_js, "target"));
      val out = val::object();
      out.set("sourceIds", ids_to_js(r.source_ids));
      out.set("targetIn", ids_to_js(r.target_in));
      out.set("targetOut", ids_to_js(r.target_out));
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
    return guarded([&] { return strings_to_js(model_.source_vocab().tokens()); });
  }
  val targetVocabulary() {
    return guarded([&] { return strings_to_js(model_.target_vocab().tokens()); });
  }

  // [{name, shape, data}] under the core's names (out.weight), in the flat buffer's order.
  val params() {
    return guarded([&] {
      val a = val::array();
      const std::vector<float>& p = model_.model().params();
      for (const lab::ParamView& v : model_.model().param_table()) {
        val o = val::object();
        o.set("name", val(v.name));
        o.set(
            "tensor",
            labjs::tensor_to_js(lab::Tensor(
                v.shape, std::vector<float>(p.begin() + v.offset, p.begin() + v.offset + v.size))));
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

val import_safetensors_js(val bytes) {
  return guarded([&] {
    const std::vector<uint8_t> data = labjs::bytes_from_js(bytes, "loadSeq2Seq()");
    return val(InterchangeHandle(lab::InterchangeModel::read(data.data(), data.size())));
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
  emscripten::function("importSafetensors", &import_safetensors_js);
  emscripten::function("exportSeq2SeqSafetensors", &export_safetensors_js);
}
