// Recurrent cells of the note's encoder and decoder (§3.3), in PyTorch's nn.RNN / nn.GRU / nn.LSTM
// layout so a PyTorch state dict loads without transposes.
//
// Shapes use tensor.h's dimension letters: B, E (input size), Hd, G, and S for the steps of one
// run (the source length for the encoder; the decoder's run is its T target steps).
//
//   RNN:  h' = tanh(W_ih x + b_ih + W_hh h + b_hh)
//   GRU:  r = σ(W_ir x + b_ir + W_hr h + b_hr),  z = σ(W_iz x + b_iz + W_hz h + b_hz),
//         n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)),  h' = (1 − z) ⊙ n + z ⊙ h
//   LSTM: i, f, o = σ(…), g = tanh(…) (gate rows in the order i, f, g, o),
//         c' = f ⊙ c + i ⊙ g,  h' = o ⊙ tanh(c')
//
// A run covers a whole padded batch: sequence b is real for steps t < lengths[b]. Padded steps
// leave the state as it was (so the final state is the state at the sequence's length, as with
// pack_padded_sequence), output zeros, and pass gradients straight through to the earlier steps.
//
// Speed: the input projection of all B·S steps is one GEMM (or, when the input is an embedding
// lookup from a small vocabulary, the model's gather from a projected table: rnn/model.cpp),
// only h W_hhᵀ is sequential, and the weight gradients are one GEMM each over the per-step buffers
// kept by the forward; every product is a kernels/gemm.h call; the gates' σ and tanh are
// kernels/activation.h calls.
#pragma once

#include <cstdint>
#include <vector>

namespace lab {

enum class CellKind { kRnn, kGru, kLstm };

int cell_gate_count(CellKind kind);  // G
const char* cell_name(CellKind kind);
CellKind parse_cell(const char* name);  // "rnn" | "gru" | "lstm"; throws InputError otherwise

struct CellShape {
  CellKind kind = CellKind::kRnn;
  long B = 0, S = 0, E = 0, Hd = 0;
  long G() const { return cell_gate_count(kind); }
};

// Views into the flat parameter buffer.
struct CellWeights {
  const float* w_ih;  // (G·Hd, E)
  const float* w_hh;  // (G·Hd, Hd)
  const float* b_ih;  // (G·Hd)
  const float* b_hh;  // (G·Hd)
};

// Views into the flat gradient buffer; accumulated with +=.
struct CellGrads {
  float* dw_ih;  // (G·Hd, E)
  float* dw_hh;  // (G·Hd, Hd)
  float* db_ih;  // (G·Hd)
  float* db_hh;  // (G·Hd)
};

// What the forward keeps for the backward. Sized once per shape by resize(); reused every step.
struct CellActivations {
  CellShape shape;
  std::vector<float> x_proj;  // (B, S, G·Hd) x W_ihᵀ + b_ih for every step
  std::vector<float> h_proj;  // (B, S, G·Hd) h W_hhᵀ + b_hh (GRU backward needs W_hn h + b_hn)
  std::vector<float> gates;   // (B, S, G·Hd) gates after their nonlinearity (RNN: h' itself)
  std::vector<float> h_prev;  // (B, S, Hd) state entering step t (input of the dW_hh GEMM)
  std::vector<float> c_prev;  // (B, S, Hd) LSTM cell entering step t
  std::vector<float> tanh_c;  // (B, S, Hd) LSTM tanh(c') of step t
  std::vector<float> out;     // (B, S, Hd) h' at real steps, 0 at padded steps
  std::vector<float> h_last;  // (B, Hd) state after the last real step
  std::vector<float> c_last;  // (B, Hd) LSTM cell after the last real step

  void resize(const CellShape& s);
};

// Scratch of the backward, sized once per shape.
struct CellScratch {
  std::vector<float> dx_proj;  // (B, S, G·Hd) dL/d(x W_ihᵀ + b_ih)
  std::vector<float> dh_proj;  // (B, S, G·Hd) dL/d(h W_hhᵀ + b_hh); 0 at padded steps
  std::vector<float> dh, dc;   // (B, Hd) gradient flowing into the state of the current step
  std::vector<float> dh_next;  // (B, Hd) gradient of the state of the previous step

  void resize(const CellShape& s);
};

// x (B, S, E) inputs; lengths (B) in [0, S]; h0, c0 (B, Hd) initial state (c0 ignored unless
// LSTM; null means zeros). cell_project_inputs, then cell_forward_steps.
void cell_forward(CellActivations& act, const CellWeights& w, const float* x,
                  const int32_t* lengths, const float* h0, const float* c0);

// The two halves of cell_forward, for a caller that fills act.x_proj itself (the model does, from
// a token table, when the input is an embedding lookup: rnn/model.cpp).
//   x_proj = x W_ihᵀ + b_ih    (B·S, G·Hd), one GEMM
void cell_project_inputs(CellActivations& act, const CellWeights& w, const float* x);
// The recurrence over act.x_proj: h_proj, gates, states and outputs of every step.
void cell_forward_steps(CellActivations& act, const CellWeights& w, const int32_t* lengths,
                        const float* h0, const float* c0);

// The backward of cell_forward_steps. dout (B, S, Hd) gradient on the outputs (ignored at padded
// steps), dh_last / dc_last (B, Hd) gradient on the final state (null = none). Leaves dL/dx_proj in
// scratch.dx_proj (B·S, G·Hd; 0 at padded steps) for the caller, whose input made x_proj (the
// model: rnn/model.cpp), and accumulates dW_hh, db_hh, and dh0, dc0 (B, Hd; either may be
// null).
void cell_backward_steps(CellGrads& g, float* dh0, float* dc0, CellScratch& scratch,
                         const CellActivations& act, const CellWeights& w, const int32_t* lengths,
                         const float* dout, const float* dh_last, const float* dc_last);

}  // namespace lab
