// embind surface of the building blocks (ops.h), so the wasm build is checked against the same
// PyTorch references as the native one. Shapes are checked here, where JS input arrives; the ops
// themselves trust their callers (the attention and Seq2Seq layers).
#include <emscripten/bind.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "convert.h"
#include "kernels/activation.h"
#include "kernels/softmax.h"
#include "ops.h"

using emscripten::val;
using lab::Tensor;
using labjs::guarded;
using labjs::tensor_from_js;
using labjs::tensor_to_js;

namespace {

val object_with(const char* key, const val& value) {
  val o = val::object();
  o.set(key, value);
  return o;
}

bool wants_grads(const val& options) {
  return labjs::has_value(options, "gradOutput");
}

Tensor grad_output(const val& options, const std::vector<long>& shape) {
  Tensor g = tensor_from_js(options["gradOutput"], "gradOutput");
  lab::check_shape(g, shape, "gradOutput");
  lab::check_finite(g, "gradOutput");
  return g;
}

Tensor matrix_arg(const val& v, const char* name) {
  Tensor t = tensor_from_js(v, name);
  lab::check_rank(t, 2, name, "(rows, columns)");
  lab::check_finite(t, name);
  return t;
}

val linear_js(val x_js, val w_js, val b_js, val options) {
  return guarded([&] {
    Tensor x = matrix_arg(x_js, "x"), w = matrix_arg(w_js, "weight");
    const long R = x.dim(0), I = x.dim(1), O = w.dim(0);
    if (w.dim(1) != I) {
      throw lab::InputError("weight has " + std::to_string(w.dim(1)) + " inputs but x has " +
                            std::to_string(I) + " features");
    }
    Tensor b = labjs::is_absent(b_js) ? Tensor() : tensor_from_js(b_js, "bias");
    if (!b.empty()) lab::check_shape(b, {O}, "bias"), lab::check_finite(b, "bias");
    Tensor y({R, O});
    lab::linear_forward(y.ptr(), x.ptr(), w.ptr(), b.empty() ? nullptr : b.ptr(), R, I, O);
    val out = val::object();
    out.set("y", tensor_to_js(y));
    if (wants_grads(options)) {
      Tensor dy = grad_output(options, y.shape), dx(x.shape), dw(w.shape), db({O});
      lab::linear_backward(dx.ptr(), dw.ptr(), db.ptr(), dy.ptr(), x.ptr(), w.ptr(), R, I, O);
      val g = val::object();
      g.set("x", tensor_to_js(dx));
      g.set("weight", tensor_to_js(dw));
      if (!b.empty()) g.set("bias", tensor_to_js(db));
      out.set("grads", g);
    }
    return out;
  });
}

val embedding_js(val ids_js, val table_js, val options) {
  return guarded([&] {
    std::vector<int32_t> ids = labjs::ids_from_js(ids_js, "ids");
    Tensor table = matrix_arg(table_js, "table");
    const long T = static_cast<long>(ids.size()), V = table.dim(0), C = table.dim(1);
    Tensor y({T, C});
    lab::embedding_forward(y.ptr(), ids.data(), table.ptr(), T, V, C);
    val out = val::object();
    out.set("y", tensor_to_js(y));
    if (wants_grads(options)) {
      Tensor dy = grad_output(options, y.shape), dtable(table.shape);
      lab::embedding_backward(dtable.ptr(), dy.ptr(), ids.data(), T, C);
      out.set("grads", object_with("table", tensor_to_js(dtable)));
    }
    return out;
  });
}

val elementwise_js(val x_js, val options, bool is_softmax) {
  return guarded([&] {
    Tensor x = matrix_arg(x_js, "x");
    const long R = x.dim(0), C = x.dim(1);
    Tensor y(x.shape);
    if (is_softmax) {
      lab::softmax_forward(y.ptr(), x.ptr(), nullptr, R, C);
    } else {
      lab::tanh_forward(y.ptr(), x.ptr(), x.size());
    }
    val out = val::object();
    out.set("y", tensor_to_js(y));
    if (wants_grads(options)) {
      Tensor dy = grad_output(options, y.shape), dx(x.shape);
      if (is_softmax) {
        lab::softmax_backward(dx.ptr(), dy.ptr(), y.ptr(), R, C);
      } else {
        lab::tanh_backward(dx.ptr(), dy.ptr(), y.ptr(), x.size());
      }
      out.set("grads", object_with("x", tensor_to_js(dx)));
    }
    return out;
  });
}

val tanh_js(val x, val options) {
  return elementwise_js(x, options, false);
}
val softmax_js(val x, val options) {
  return elementwise_js(x, options, true);
}

val cross_entropy_js(val logits_js, val targets_js, val options) {
  return guarded([&] {
    Tensor logits = matrix_arg(logits_js, "logits");
    std::vector<int32_t> targets = labjs::ids_from_js(targets_js, "targets");
    const long R = logits.dim(0), V = logits.dim(1);
    if (static_cast<long>(targets.size()) != R) {
      throw lab::InputError("targets has " + std::to_string(targets.size()) +
                            " entries but logits has " + std::to_string(R) + " rows");
    }
    const double ignore = labjs::js_number(options, "ignoreIndex", -100, "ignoreIndex");
    Tensor probs(logits.shape);
    float loss =
        lab::cross_entropy_forward(probs.ptr(), logits.ptr(), targets.data(),
                                   static_cast<int32_t>(ignore), R, V, lab::LogSumExp::kDouble);
    val out = val::object();
    out.set("loss", val(loss));
    out.set("probs", tensor_to_js(probs));
    if (wants_grads(options)) {
      const double dloss = labjs::js_number(options, "gradOutput", 1.0, "gradOutput");
      Tensor dlogits(logits.shape);
      lab::cross_entropy_backward(dlogits.ptr(), probs.ptr(), targets.data(),
                                  static_cast<int32_t>(ignore), R, V, static_cast<float>(dloss));
      out.set("grads", object_with("logits", tensor_to_js(dlogits)));
    }
    return out;
  });
}

// For tests/wasm/kernels.test.mjs, which checks the wasm SIMD non-linearities against Math.exp /
// Math.tanh: kernels/activation.h's 'sigmoid', 'tanh', 'gelu' or 'geluGrad' (GELU′(x): the
// backward with dy = 1), 'geluGradKept' (the same from gelu_forward's kept tanh), 'geluGradWritten'
// (the same written over NaN instead of added onto zeros) (anything else:
// exp_inplace) on a copy of x; returns the copy. Not part
// of the package API (no wrapper in attention-lab.mjs).
val kernel_activation_js(std::string name, val x) {
  std::vector<float> y = emscripten::convertJSArrayToNumberVector<float>(x);
  const long n = static_cast<long>(y.size());
  if (name == "sigmoid") {
    lab::kernels::sigmoid_inplace(y.data(), n);
  } else if (name == "tanh") {
    lab::kernels::tanh_inplace(y.data(), n);
  } else if (name == "gelu") {
    lab::kernels::gelu_forward(y.data(), y.data(), n);
  } else if (name == "prefixMax") {  // y[i] = max_of(x, i + 1): every length's blocks and tail
    const std::vector<float> x_copy = y;
    for (long i = 0; i < n; ++i) y[i] = lab::kernels::max_of(x_copy.data(), i + 1);
  } else if (name == "geluGradWritten") {
    const std::vector<float> x_copy = y, ones(y.size(), 1.0f);
    std::fill(y.begin(), y.end(), std::numeric_limits<float>::quiet_NaN());
    lab::kernels::gelu_backward(y.data(), ones.data(), x_copy.data(), n, nullptr, false);
  } else if (name == "geluGrad" || name == "geluGradKept") {
    const std::vector<float> x_copy = y, ones(y.size(), 1.0f);
    std::vector<float> t;  // geluGradKept: the forward's tanh, which the backward then reads
    if (name == "geluGradKept") {
      t.resize(y.size());
      lab::kernels::gelu_forward(y.data(), x_copy.data(), n, t.data());
    }
    std::fill(y.begin(), y.end(), 0.0f);
    lab::kernels::gelu_backward(y.data(), ones.data(), x_copy.data(), n,
                                t.empty() ? nullptr : t.data());
  } else {
    lab::kernels::exp_inplace(y.data(), n);
  }
  return val(emscripten::typed_memory_view(y.size(), y.data())).call<val>("slice");
}

// For tests/wasm/kernels.test.mjs, which checks the models' one-pass loss and gradient against
// the crossEntropy op and an argmax in JavaScript: cross_entropy_forward_backward (ops.h) of
// logits (R, V) given as rows of numbers, dloss 1: { loss, dlogits (flat), hits }. Not part of the
// package API.
val kernel_cross_entropy_step_js(val logits_js, val targets_js, int ignore) {
  return guarded([&] {
    Tensor logits = tensor_from_js(logits_js, "logits");  // non-finite allowed: they give NaN
    lab::check_rank(logits, 2, "logits", "(rows, columns)");
    const std::vector<int32_t> targets = labjs::ids_from_js(targets_js, "targets");
    const long R = logits.dim(0), V = logits.dim(1);
    if (static_cast<long>(targets.size()) != R) throw lab::InputError("one target a row");
    std::vector<float> dlogits(static_cast<size_t>(R * V));
    long hits = 0;
    const float loss = lab::cross_entropy_forward_backward(
        dlogits.data(), logits.ptr(), targets.data(), ignore, R, V, 1.0f, &hits);
    val out = val::object();
    out.set("loss", val(loss));
    out.set("dlogits",
            val(emscripten::typed_memory_view(dlogits.size(), dlogits.data())).call<val>("slice"));
    out.set("hits", val(static_cast<double>(hits)));
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_ops) {
  emscripten::function("kernelActivation", &kernel_activation_js);
  emscripten::function("kernelCrossEntropyStep", &kernel_cross_entropy_step_js);
  emscripten::function("linear", &linear_js);
  emscripten::function("embedding", &embedding_js);
  emscripten::function("tanh", &tanh_js);
  emscripten::function("softmax", &softmax_js);
  emscripten::function("crossEntropy", &cross_entropy_js);
}
