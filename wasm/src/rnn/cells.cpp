#include "rnn/cells.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "kernels/activation.h"
#include "kernels/gemm.h"
#include "ops.h"
#include "tensor.h"

namespace lab {

namespace {

// One time step of a batch-first (B, S, X) buffer: B rows of X floats, S·X apart.
using StepMap = Eigen::Map<MatR, 0, Eigen::OuterStride<>>;
using ArrF = Eigen::ArrayXf;
using MapA = Eigen::Map<Eigen::ArrayXf>;
using CMapA = Eigen::Map<const Eigen::ArrayXf>;

// v holds at least n floats. The per-step buffers only grow: batches are padded to their own
// longest sequence, so S changes from batch to batch, and resize() would zero-fill the grown part
// of each (B, S, G·Hd) buffer every time (megabytes per dates step: 18% of a step in wasm's
// profile). Nothing reads a float of them that this step has not written first.
void grow_to(std::vector<float>& v, long n) {
  if (static_cast<long>(v.size()) < n) v.resize(static_cast<size_t>(n));
}

StepMap step_rows(std::vector<float>& buf, long t, long B, long S, long X) {
  return StepMap(buf.data() + t * X, B, X, Eigen::OuterStride<>(S * X));
}

}  // namespace

int cell_gate_count(CellKind kind) {
  switch (kind) {
    case CellKind::kRnn:
      return 1;
    case CellKind::kGru:
      return 3;
    case CellKind::kLstm:
      return 4;
  }
  return 1;
}

const char* cell_name(CellKind kind) {
  switch (kind) {
    case CellKind::kRnn:
      return "rnn";
    case CellKind::kGru:
      return "gru";
    case CellKind::kLstm:
      return "lstm";
  }
  return "rnn";
}

CellKind parse_cell(const char* name) {
  std::string n = name ? name : "";
  if (n == "rnn") return CellKind::kRnn;
  if (n == "gru") return CellKind::kGru;
  if (n == "lstm") return CellKind::kLstm;
  throw InputError("unknown cell \"" + n + "\": expected rnn, gru or lstm");
}

void CellActivations::resize(const CellShape& s) {
  shape = s;
  const long rows = s.B * s.S, gh = s.G() * s.Hd;
  const bool lstm = s.kind == CellKind::kLstm;
  grow_to(x_proj, rows * gh);
  grow_to(h_proj, rows * gh);
  grow_to(gates, rows * gh);
  grow_to(h_prev, rows * s.Hd);
  grow_to(c_prev, lstm ? rows * s.Hd : 0);
  grow_to(tanh_c, lstm ? rows * s.Hd : 0);
  out.resize(rows * s.Hd);
  h_last.resize(s.B * s.Hd);
  c_last.resize(lstm ? s.B * s.Hd : 0);
}

void CellScratch::resize(const CellShape& s) {
  const long rows = s.B * s.S, gh = s.G() * s.Hd;
  grow_to(dx_proj, rows * gh);
  grow_to(dh_proj, rows * gh);
  dh.resize(s.B * s.Hd);
  dc.resize(s.B * s.Hd);
  dh_next.resize(s.B * s.Hd);
}

void cell_forward(CellActivations& act, const CellWeights& w, const float* x,
                  const int32_t* lengths, const float* h0, const float* c0) {
  cell_project_inputs(act, w, x);
  cell_forward_steps(act, w, lengths, h0, c0);
}

void cell_project_inputs(CellActivations& act, const CellWeights& w, const float* x) {
  const CellShape& s = act.shape;
  const long E = s.E, GH = s.G() * s.Hd;
  // x_proj = x W_ihᵀ + b_ih     all B·S steps in one GEMM: the inputs do not depend on the state
  kernels::gemm_nt(act.x_proj.data(), GH, x, E, w.w_ih, E, s.B * s.S, GH, E, false, w.b_ih);
}

void cell_forward_steps(CellActivations& act, const CellWeights& w, const int32_t* lengths,
                        const float* h0, const float* c0) {
  const CellShape& s = act.shape;
  const long B = s.B, S = s.S, Hd = s.Hd, GH = s.G() * Hd;
  const bool lstm = s.kind == CellKind::kLstm;

  // The running state lives in h_last / c_last (B, Hd): after the loop it is the final state.
  MapR h(act.h_last.data(), B, Hd);
  if (h0) {
    h = CMapR(h0, B, Hd);
  } else {
    h.setZero();
  }
  if (lstm) {
    MapR c(act.c_last.data(), B, Hd);
    if (c0) {
      c = CMapR(c0, B, Hd);
    } else {
      c.setZero();
    }
  }
  for (long t = 0; t < S; ++t) {
    step_rows(act.h_prev, t, B, S, Hd) = h;
    // h_proj = h W_hhᵀ + b_hh   (B, G·Hd): the only sequential GEMM
    kernels::gemm_nt(act.h_proj.data() + t * GH, S * GH, act.h_last.data(), Hd, w.w_hh, Hd, B, GH,
                     Hd, false, w.b_hh);

    for (long b = 0; b < B; ++b) {
      const long row = b * S + t;
      float* out = act.out.data() + row * Hd;
      if (t >= lengths[b]) {
        // Padding: the state stays, the output is zero.
        std::fill(out, out + Hd, 0.0f);
        std::fill(act.gates.data() + row * GH, act.gates.data() + (row + 1) * GH, 0.0f);
        continue;
      }
      CMapA xp(act.x_proj.data() + row * GH, GH), hp(act.h_proj.data() + row * GH, GH);
      MapA gates(act.gates.data() + row * GH, GH);
      MapA h_b(act.h_last.data() + b * Hd, Hd);
      float* g = gates.data();
      switch (s.kind) {
        case CellKind::kRnn:
          // h' = tanh(W_ih x + b_ih + W_hh h + b_hh)
          gates = xp + hp;
          kernels::tanh_inplace(g, GH);
          h_b = gates;
          break;
        case CellKind::kGru: {
          // r, z = σ(x_proj + h_proj) over the first 2·Hd rows
          gates.head(2 * Hd) = xp.head(2 * Hd) + hp.head(2 * Hd);
          kernels::sigmoid_inplace(g, 2 * Hd);
          // n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))
          gates.tail(Hd) = xp.tail(Hd) + gates.head(Hd) * hp.tail(Hd);
          kernels::tanh_inplace(g + 2 * Hd, Hd);
          // h' = (1 − z) ⊙ n + z ⊙ h
          auto z = gates.segment(Hd, Hd);
          h_b = (1.0f - z) * gates.tail(Hd) + z * h_b;
          break;
        }
        case CellKind::kLstm: {
          // i, f = σ(·), g = tanh(·), o = σ(·) of x_proj + h_proj
          gates = xp + hp;
          kernels::sigmoid_inplace(g, 2 * Hd);
          kernels::tanh_inplace(g + 2 * Hd, Hd);
          kernels::sigmoid_inplace(g + 3 * Hd, Hd);
          MapA c_b(act.c_last.data() + b * Hd, Hd);
          MapA(act.c_prev.data() + row * Hd, Hd) = c_b;
          // c' = f ⊙ c + i ⊙ g
          c_b = gates.segment(Hd, Hd) * c_b + gates.head(Hd) * gates.segment(2 * Hd, Hd);
          MapA tanh_c(act.tanh_c.data() + row * Hd, Hd);
          tanh_c = c_b;
          kernels::tanh_inplace(tanh_c.data(), Hd);
          // h' = o ⊙ tanh(c')
          h_b = gates.tail(Hd) * tanh_c;
          break;
        }
      }
      std::memcpy(out, h_b.data(), sizeof(float) * Hd);
    }
  }
}

void cell_backward_steps(CellGrads& g, float* dh0, float* dc0, CellScratch& scratch,
                         const CellActivations& act, const CellWeights& w, const int32_t* lengths,
                         const float* dout, const float* dh_last, const float* dc_last) {
  const CellShape& s = act.shape;
  const long B = s.B, S = s.S, Hd = s.Hd, GH = s.G() * Hd;
  const bool lstm = s.kind == CellKind::kLstm;

  // dx_proj / dh_proj: every real row is assigned below, padded rows are zeroed there (no memset
  // of the whole (B, S, G·Hd) buffers: 3.4 MB each for the dates recipe's encoder).
  // dh, dc (B, Hd): gradient on the state after step t, starting from the final state's
  if (dh_last) {
    MapR(scratch.dh.data(), B, Hd) = CMapR(dh_last, B, Hd);
  } else {
    std::fill(scratch.dh.begin(), scratch.dh.end(), 0.0f);
  }
  if (lstm && dc_last) {
    MapR(scratch.dc.data(), B, Hd) = CMapR(dc_last, B, Hd);
  } else {
    std::fill(scratch.dc.begin(), scratch.dc.end(), 0.0f);
  }
  for (long t = S - 1; t >= 0; --t) {
    for (long b = 0; b < B; ++b) {
      const long row = b * S + t;
      MapA dh_b(scratch.dh.data() + b * Hd, Hd);
      MapA dh_next_b(scratch.dh_next.data() + b * Hd, Hd);
      if (t >= lengths[b]) {
        // Padding kept the state, so its gradient passes through unchanged (dc stays in place).
        dh_next_b = dh_b;
        std::fill_n(scratch.dx_proj.data() + row * GH, GH, 0.0f);
        std::fill_n(scratch.dh_proj.data() + row * GH, GH, 0.0f);
        continue;
      }
      dh_b += CMapA(dout + row * Hd, Hd);
      CMapA gates(act.gates.data() + row * GH, GH);
      MapA dxp(scratch.dx_proj.data() + row * GH, GH), dhp(scratch.dh_proj.data() + row * GH, GH);
      switch (s.kind) {
        case CellKind::kRnn:
          // da = dh ⊙ (1 − h'²), the same for both projections
          dxp = dh_b * (1.0f - gates.square());
          dhp = dxp;
          dh_next_b.setZero();
          break;
        case CellKind::kGru: {
          auto r = gates.head(Hd);
          auto z = gates.segment(Hd, Hd);
          auto n = gates.tail(Hd);
          CMapA h_prev(act.h_prev.data() + row * Hd, Hd);
          CMapA hn(act.h_proj.data() + row * GH + 2 * Hd, Hd);
          // dn_pre = dh ⊙ (1 − z) ⊙ (1 − n²)
          ArrF dn_pre = dh_b * (1.0f - z) * (1.0f - n.square());
          // dz_pre = dh ⊙ (h − n) ⊙ z (1 − z)
          dxp.segment(Hd, Hd) = dh_b * (h_prev - n) * z * (1.0f - z);
          // dr_pre = dn_pre ⊙ (W_hn h + b_hn) ⊙ r (1 − r)
          dxp.head(Hd) = dn_pre * hn * r * (1.0f - r);
          dxp.tail(Hd) = dn_pre;
          dhp.head(2 * Hd) = dxp.head(2 * Hd);
          // d(W_hn h + b_hn) = dn_pre ⊙ r: the reset gate scales the recurrent part only
          dhp.tail(Hd) = dn_pre * r;
          // dh_prev (direct path) = dh ⊙ z
          dh_next_b = dh_b * z;
          break;
        }
        case CellKind::kLstm: {
          auto i = gates.head(Hd);
          auto f = gates.segment(Hd, Hd);
          auto gg = gates.segment(2 * Hd, Hd);
          auto o = gates.tail(Hd);
          CMapA tanh_c(act.tanh_c.data() + row * Hd, Hd);
          CMapA c_prev(act.c_prev.data() + row * Hd, Hd);
          MapA dc_b(scratch.dc.data() + b * Hd, Hd);
          // dc' += dh ⊙ o ⊙ (1 − tanh²(c'))
          dc_b += dh_b * o * (1.0f - tanh_c.square());
          // di = dc' ⊙ g, df = dc' ⊙ c, dg = dc' ⊙ i, do = dh ⊙ tanh(c'), then through σ / tanh
          dxp.head(Hd) = dc_b * gg * i * (1.0f - i);
          dxp.segment(Hd, Hd) = dc_b * c_prev * f * (1.0f - f);
          dxp.segment(2 * Hd, Hd) = dc_b * i * (1.0f - gg.square());
          dxp.tail(Hd) = dh_b * tanh_c * o * (1.0f - o);
          dhp = dxp;
          // dc = dc' ⊙ f
          dc_b *= f;
          dh_next_b.setZero();
          break;
        }
      }
    }
    // dh_prev += dh_proj W_hh     (padded rows of dh_proj are zero)
    kernels::gemm_nn(scratch.dh_next.data(), Hd, scratch.dh_proj.data() + t * GH, S * GH, w.w_hh,
                     Hd, B, Hd, GH, true);
    scratch.dh.swap(scratch.dh_next);
  }
  if (dh0) MapR(dh0, B, Hd) += CMapR(scratch.dh.data(), B, Hd);
  if (lstm && dc0) MapR(dc0, B, Hd) += CMapR(scratch.dc.data(), B, Hd);

  // dW_hh += dh_projᵀ h_prev,  db_hh += Σ dh_proj
  linear_backward(nullptr, g.dw_hh, g.db_hh, scratch.dh_proj.data(), act.h_prev.data(), w.w_hh,
                  B * S, Hd, GH);
}

}  // namespace lab
