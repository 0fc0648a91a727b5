#include "why_convert.h"

#include <string>

#include "convert.h"
#include "tensor.h"

namespace labjs {

namespace {

lab::Tensor matrix(long rows, long cols, const std::vector<float>& data) {
  return lab::Tensor({rows, cols}, data);
}

}  // namespace

std::vector<lab::InterventionRequest> interventions_from_js(const val& list) {
  std::vector<lab::InterventionRequest> out;
  if (is_absent(list)) return out;
  if (!val::global("Array").call<bool>("isArray", list)) {
    throw lab::InputError("interventions must be an array of {step, kind, …}");
  }
  const long n = list["length"].as<long>();
  if (n > 4096) throw lab::InputError("interventions: " + std::to_string(n) + " is too many");
  for (long i = 0; i < n; ++i) {
    const val js = list[i];
    const std::string what = "interventions[" + std::to_string(i) + "]";
    if (is_absent(js) || js.typeOf().as<std::string>() != "object") {
      throw lab::InputError(what + " must be an object {step, kind, …}");
    }
    check_keys(js, {"step", "kind", "source", "weights", "token", "attention", "layer", "head"},
               what);
    lab::InterventionRequest r;
    if (!has_value(js, "kind")) {
      throw lab::InputError(what +
                            ".kind must be force-attention, edit-attention, mask-source, "
                            "force-token or zero-head");
    }
    r.intervention.kind = lab::parse_intervention_kind(js_string(js, "kind", "", what + ".kind"));
    if (has_value(js, "step")) {
      r.intervention.step = js_whole(js["step"], what + ".step");
    } else if (r.intervention.kind == lab::InterventionKind::kZeroHead) {
      r.intervention.step = -1;  // every step
    } else {
      throw lab::InputError(what + ".step must be a number");
    }
    if (has_value(js, "attention")) {
      r.intervention.attention =
          lab::parse_attention_site(js_string(js, "attention", "cross", what + ".attention"));
    }
    r.intervention.layer = js_whole(js, "layer", what + ".layer").value_or(-1);
    r.intervention.head = js_whole(js, "head", what + ".head").value_or(-1);
    r.intervention.source = js_whole(js, "source", what + ".source").value_or(-1);
    if (has_value(js, "weights")) {
      const val w = js["weights"];
      const bool typed = w.instanceof (val::global("Float32Array"));
      if (!val::global("Array").call<bool>("isArray", w) && !typed) {
        throw lab::InputError(what + ".weights must be an array of numbers");
      }
      const long m = w["length"].as<long>();
      if (m > 1 << 16) throw lab::InputError(what + ".weights is too long");
      for (long s = 0; s < m; ++s) {
        if (w[s].typeOf().as<std::string>() != "number") {
          throw lab::InputError(what + ".weights[" + std::to_string(s) + "] must be a number");
        }
        r.intervention.weights.push_back(static_cast<float>(w[s].as<double>()));
      }
    }
    if (has_value(js, "token")) r.token = js_text(js["token"], what + ".token");
    const bool needs_source = r.intervention.kind == lab::InterventionKind::kForceAttention ||
                              r.intervention.kind == lab::InterventionKind::kMaskSource;
    if (needs_source && !has_value(js, "source")) {
      throw lab::InputError(what + " (" + lab::intervention_kind_name(r.intervention.kind) +
                            ") needs source, the 0-based position of a source token");
    }
    if (r.intervention.kind == lab::InterventionKind::kEditAttention && !has_value(js, "weights")) {
      throw lab::InputError(what + " (edit-attention) needs weights, one per source token");
    }
    out.push_back(std::move(r));
  }
  return out;
}

lab::TranslateOptions translate_options_with_interventions_from_js(const val& options) {
  lab::TranslateOptions o = translate_options_from_js(options, true);
  if (!is_absent(options)) o.interventions = interventions_from_js(options["interventions"]);
  return o;
}

void set_step_flags(val& o, const lab::GreedyStep& s) {
  o.set("forcedToken", val(s.forced_token));
  o.set("editedAttention", val(s.edited_attention));
}

val intervention_to_js(const TokenName& token, const lab::InterventionComparison& cmp, long S) {
  val original = val::object();
  original.set("output", tokens_to_js(token, cmp.original.tokens));
  original.set("text", val(cmp.original_text));
  original.set("finished", val(cmp.original.finished));
  original.set("steps", greedy_steps_to_js(token, cmp.original.steps));
  val changed = val::array();
  for (uint8_t c : cmp.changed) changed.call<void>("push", val(c != 0));
  val o = val::object();
  o.set("original", original);
  o.set("changed", changed);
  o.set("firstChange", number(cmp.first_change));
  if (!cmp.encoder_outputs.empty()) {
    o.set("encoderOutputs",
          tensor_to_js(
              matrix(S, static_cast<long>(cmp.encoder_outputs.size()) / S, cmp.encoder_outputs)));
  } else {
    o.set("encoderOutputs", val::null());
  }
  return o;
}

void set_greedy_translation_to_js(val& out, const TokenName& token, const lab::TranslateResult& r) {
  if (!r.intervention) {
    out.set("steps", greedy_steps_to_js(token, r.greedy.steps));
    return;
  }
  const std::vector<lab::GreedyStep>& steps = r.greedy.steps;
  out.set("steps", greedy_steps_to_js(token, steps, [&](val& o, size_t t, size_t) {
            set_step_flags(o, steps[t]);
            o.set("context", float_array_to_js(steps[t].context));
          }));
  out.set("intervention",
          intervention_to_js(token, *r.intervention, static_cast<long>(r.source.size())));
}

lab::AttributionRequest attribution_request_from_js(const val& options, bool with_max_length) {
  if (with_max_length) {
    check_keys(options, {"method", "steps", "maxLength"}, "attribution options");
  } else {
    check_keys(options, {"method", "steps"}, "attribution options");
  }
  lab::AttributionRequest r;
  r.options.method = lab::parse_attribution_method(
      js_string(options, "method", "gradient-input", "attribution: method"));
  r.options.steps = js_whole(options, "steps", "attribution: steps").value_or(r.options.steps);
  if (with_max_length) r.max_length = js_whole(options, "maxLength", "attribution: maxLength");
  return r;
}

ModelAttributionRequest model_attribution_request_from_js(const val& request) {
  if (is_absent(request)) {
    throw lab::InputError("attribution() needs {src, target, method?, steps?}");
  }
  check_keys(request, {"src", "target", "method", "steps"}, "attribution request");
  ModelAttributionRequest r;
  r.src = ids_from_js(request["src"], "attribution: src");
  r.target = ids_from_js(request["target"], "attribution: target");
  val options = val::object();
  if (has_value(request, "method")) options.set("method", request["method"]);
  if (has_value(request, "steps")) options.set("steps", request["steps"]);
  r.options = attribution_request_from_js(options, false).options;
  return r;
}

val attribution_result_to_js(const lab::AttributionResult& r) {
  val out = val::object();
  out.set("method", val(std::string(lab::attribution_method_name(r.method))));
  out.set("steps", number(r.steps));
  out.set("scores", tensor_to_js(matrix(r.T, r.S, r.scores)));
  out.set("attention",
          r.attention.empty() ? val::null() : tensor_to_js(matrix(r.T, r.S, r.attention)));
  out.set("logProb", float_array_to_js(r.log_prob));
  out.set("baselineLogProb",
          r.baseline_log_prob.empty() ? val::null() : float_array_to_js(r.baseline_log_prob));
  val rho = val::array();
  for (const auto& x : r.rank_correlation) rho.call<void>("push", x ? val(*x) : val::null());
  out.set("rankCorrelation", rho);
  return out;
}

val session_attribution_to_js(const lab::SessionAttribution& a) {
  val out = translation_to_js([&](int32_t) -> const std::string& { return a.text; }, a.source, {},
                              a.text, true);
  out.delete_("output");
  out.delete_("finished");
  out.set("words", strings_to_js(a.words));
  val r = attribution_result_to_js(a.attribution);
  for (const char* key : {"method", "steps", "scores", "attention", "logProb", "baselineLogProb",
                          "rankCorrelation"}) {
    out.set(key, r[key]);
  }
  return out;
}

void timeline_options_from_js(const val& options, long& every, long& capacity) {
  check_keys(options, {"every", "capacity"}, "recordTimeline options");
  every = js_whole(options, "every", "recordTimeline: every").value_or(10);
  capacity = js_whole(options, "capacity", "recordTimeline: capacity").value_or(200);
}

val timeline_to_js(const TokenName& token, const lab::AttentionTimeline& tl,
                   const std::vector<lab::SourceToken>& probe) {
  val out = translation_to_js(token, probe, {}, "", false);
  out.delete_("output");
  out.delete_("text");
  out.delete_("finished");
  out.set("probe", out["source"]);
  out.delete_("source");
  out.set("every", number(tl.every()));
  out.set("capacity", number(tl.capacity()));
  out.set("startStep", number(tl.start_step()));
  out.set("recording", val(tl.active()));
  const long S = static_cast<long>(tl.probe().size());
  val frames = val::array();
  for (const lab::TimelineFrame& f : tl.frames()) {
    val o = val::object();
    o.set("step", number(f.step));
    o.set("output", tokens_to_js(token, f.output));
    o.set("attention", f.attention.empty() ? val::null()
                                           : tensor_to_js(matrix(static_cast<long>(f.output.size()),
                                                                 S, f.attention)));
    frames.call<void>("push", o);
  }
  out.set("frames", frames);
  return out;
}

}  // namespace labjs
