// embind surface of lab::GptSession (gpt/session.h): a character-level GPT on a corpus, trained,
// evaluated against unigram and bigram baselines, sampled, saved and loaded. wasm/js/gpt.mjs
// wraps it as lab.createGptSession(config) / lab.loadGptSession(bytes).
//
//   createGptSession({text, heldOut?, blockSize?, layers?, heads?, dModel?, batchSize?,
//                     learningRate?, warmup?, seed?, windows?, drills?})   absent keys: the poems
//                     recipe's defaults (drills: 0 with windows 'text')
//   loadGptSession(bytes)                              → GptSessionHandle
//   handle.train(steps)  → {losses, step}   (diverged: {error, completed})
//   handle.evaluate()    → {trainLoss, validationLoss, unigramLoss, bigramLoss, characters}
//   handle.sample(prompt, {maxNewTokens?, greedy?, temperature?, topK?, topP?, seed?,
//                          topCandidates?, zeroHeads?}) → {text, generated, ids, steps}
//   handle.headScores({zeroHeads?}) → {layers, heads, previous, lineBack, lineStart, induction
//                          (L, H), queries}   what each head learned (gpt/heads.h)
//   handle.info()        → {vocab, parameters, step, config, corpus}
//   handle.save()        → Uint8Array (.atlb, kind attention-lab/gpt)
// Conversion only: every check and message is the core's. Errors come back as {error}.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "gpt/session.h"
#include "gpt_convert.h"

using emscripten::val;
using labjs::guarded;

namespace {

const std::vector<std::string> kConfigKeys = {"text",   "heldOut", "blockSize", "layers",
                                              "heads",  "dModel",  "batchSize", "learningRate",
                                              "warmup", "seed",    "windows",   "drills"};

lab::GptSessionConfig config_from_js(const val& js) {
  if (labjs::is_absent(js) || !labjs::has_value(js, "text")) {
    throw lab::InputError("createGptSession needs a config object with text (the corpus)");
  }
  labjs::check_keys(js, kConfigKeys, "config");
  lab::GptSessionConfig c = lab::gpt_poems_defaults();
  c.text = labjs::js_text(js["text"], "text");
  c.held_out = labjs::js_number(js, "heldOut", c.held_out, "heldOut");
  c.block_size = labjs::js_whole(js, "blockSize", "blockSize").value_or(c.block_size);
  c.layers = labjs::js_whole(js, "layers", "layers").value_or(c.layers);
  c.heads = labjs::js_whole(js, "heads", "heads").value_or(c.heads);
  c.d_model = labjs::js_whole(js, "dModel", "dModel").value_or(c.d_model);
  c.batch_size = labjs::js_whole(js, "batchSize", "batchSize").value_or(c.batch_size);
  c.learning_rate = labjs::js_number(js, "learningRate", c.learning_rate, "learningRate");
  c.warmup = labjs::js_whole(js, "warmup", "warmup").value_or(c.warmup);
  c.seed = labjs::js_seed(js, "seed", "seed").value_or(c.seed);
  if (labjs::has_value(js, "windows")) {
    c.windows = lab::gpt_windows_from_name(labjs::js_text(js["windows"], "windows"), "windows");
  }
  // form drills are poems read from their start: windows anywhere have none unless asked
  c.drills = labjs::js_number(js, "drills", c.windows == lab::GptWindows::kPoem ? c.drills : 0.0,
                              "drills");
  return c;  // checked by the session
}

class GptSessionHandle {
 public:
  explicit GptSessionHandle(lab::GptSession&& session) : session_(std::move(session)) {}

  val train(val steps) {
    return guarded(
        [&] { return labjs::train_to_js(steps, [&](long n) { return session_.train(n); }); });
  }

  val evaluate() {
    return guarded([&] {
      const lab::GptEvalResult r = session_.evaluate();
      val out = val::object();
      out.set("trainLoss", val(r.train_loss));
      out.set("validationLoss", val(r.validation_loss));
      out.set("unigramLoss", val(r.unigram_loss));
      out.set("bigramLoss", val(r.bigram_loss));
      out.set("characters", val(static_cast<double>(r.characters)));
      return out;
    });
  }

  val sample(val prompt, val options) {
    return guarded([&] {
      const std::string text = labjs::js_text(prompt, "prompt");
      const lab::GenerateOptions o = labjs::generate_options_from_js(options, {}, "sample options");
      const lab::GptSampleResult r = session_.sample(text, o);
      val ids = val::array();
      for (int32_t id : r.generation.ids) ids.call<void>("push", val(id));
      val out = val::object();
      out.set("text", val(r.text));
      out.set("generated", val(r.generated));
      out.set("ids", ids);
      out.set("steps", labjs::generation_steps_to_js(r.generation, session_.model().config(),
                                                     &session_.vocab().chars()));
      return out;
    });
  }

  val headScores(val options) {
    return guarded([&] {
      labjs::check_keys(options, {"zeroHeads"}, "headScores options");
      return labjs::head_scores_to_js(session_.head_scores(labjs::zero_heads_from_js(options)));
    });
  }

  val info() {
    return guarded([&] {
      const lab::GptSessionConfig& c = session_.config();
      val vocab = val::array();
      for (const std::string& ch : session_.vocab().chars()) vocab.call<void>("push", val(ch));
      val config = val::object();
      config.set("heldOut", val(c.held_out));
      config.set("windows", val(std::string(lab::gpt_windows_name(c.windows))));
      config.set("drills", val(c.drills));
      config.set("blockSize", val(static_cast<double>(c.block_size)));
      config.set("layers", val(static_cast<double>(c.layers)));
      config.set("heads", val(static_cast<double>(c.heads)));
      config.set("dModel", val(static_cast<double>(c.d_model)));
      config.set("batchSize", val(static_cast<double>(c.batch_size)));
      config.set("learningRate", val(c.learning_rate));
      config.set("warmup", val(static_cast<double>(c.warmup)));
      config.set("seed", val(static_cast<double>(c.seed)));
      const lab::GptCorpusInfo& k = session_.corpus();
      val corpus = val::object();
      corpus.set("poems", val(static_cast<double>(k.poems)));
      corpus.set("trainPoems", val(static_cast<double>(k.train_poems)));
      corpus.set("heldOutPoems", val(static_cast<double>(k.held_out_poems)));
      corpus.set("trainCharacters", val(static_cast<double>(k.train_characters)));
      corpus.set("heldOutCharacters", val(static_cast<double>(k.held_out_characters)));
      val out = val::object();
      out.set("vocab", vocab);
      out.set("parameters", val(static_cast<double>(session_.model().num_params())));
      out.set("step", val(static_cast<double>(session_.step())));
      out.set("config", config);
      out.set("corpus", corpus);
      return out;
    });
  }

  val save() {
    return guarded([&] { return labjs::bytes_to_js(session_.save()); });
  }

 private:
  lab::GptSession session_;
};

val create_gpt_session_js(val config) {
  return guarded([&] { return val(GptSessionHandle(lab::GptSession(config_from_js(config)))); });
}

val load_gpt_session_js(val bytes_js) {
  return guarded([&] {
    const std::vector<uint8_t> bytes = labjs::bytes_from_js(bytes_js, "the session file's bytes");
    return val(GptSessionHandle(lab::GptSession::load(bytes)));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_gpt_session) {
  emscripten::class_<GptSessionHandle>("GptSessionHandle")
      .function("train", &GptSessionHandle::train)
      .function("evaluate", &GptSessionHandle::evaluate)
      .function("sample", &GptSessionHandle::sample)
      .function("headScores", &GptSessionHandle::headScores)
      .function("info", &GptSessionHandle::info)
      .function("save", &GptSessionHandle::save);
  emscripten::function("createGptSession", &create_gpt_session_js);
  emscripten::function("loadGptSession", &load_gpt_session_js);
}
