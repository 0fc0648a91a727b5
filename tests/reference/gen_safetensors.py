"""Reference data for the PyTorch interchange (.safetensors, docs/safetensors.md).

Run from the repository root with Debian's PyTorch (the pyenv `python3` on PATH has no torch):

    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas /usr/bin/python3 tests/reference/gen_safetensors.py

The output is byte-for-byte reproducible for one BLAS: the committed files come from Debian's reference BLAS
(the LD_LIBRARY_PATH above; with libopenblas0-pthread installed, libblas.so.3 is OpenBLAS, whose different
rounding changes the last bits of the book model's training). Any BLAS gives files the tests accept: each
side of the check is computed from the committed weights.

Two directions, both written under shared/reference/ and committed, so the tests never need torch:

1. PyTorch -> AttentionLab. The book's translator for the note's five pairs, written with the book's class and
   attribute names (Encoder: embedding, rnn; Decoder: embedding, rnn, attention, out; Seq2Seq: encoder, decoder),
   trained as the book trains it (400 Adam steps at lr 1e-3, one random pair per step, teacher forcing,
   cross-entropy), seeded. Hidden size 32 instead of the book's 128 keeps the committed file small (28 KiB).
   Its vocabularies are the book's word lists: no <pad>, no <unk>, <sos> and <eos> wherever they first appear
   (the book builds them from a set, whose order changes from run to run; first appearance is reproducible).
   Writes book_seq2seq.safetensors (with save_translator below) and, in safetensors.json under "book", for each
   pair the teacher-forced logits and attention (computed in float64 from the stored float32 weights) and the
   greedy translation.

2. AttentionLab -> PyTorch. For every file shared/reference/core_*.safetensors (written by
   tests/reference/export_core_models.mjs from models trained in wasm), loads the tensors into the project's
   reference module (the state-dict names of tests/reference/gen_seq2seq.py), or, for a file exported with the
   book's names (decoder.out.*), into the book's classes above, with load_state_dict(strict=True)
   and writes, under "core", the teacher-forced logits of the five pairs and the greedy translations. The tests
   compare them with the core's own numbers for the same file.

3. The Transformer, AttentionLab -> PyTorch. shared/reference/transformer_note.safetensors (a Transformer trained
   in wasm on the note's pairs by export_core_models.mjs) loads into tests/reference/gen_transformer.py's
   TransformerSeq2Seq with load_state_dict(strict=True); "transformer" holds its teacher-forced logits of the five
   pairs and its greedy translations.

The safetensors package is not in Debian, so the format is read and written here with struct and json (it is
an 8-byte little-endian header length, a JSON header, and the raw little-endian data).
"""
import glob
import json
import math
import os
import random
import struct
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # gen_transformer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "shared", "reference")
OUT = os.path.join(REF, "safetensors.json")
BOOK_FILE = os.path.join(REF, "book_seq2seq.safetensors")

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

# The note's five pairs (the `note` task of wasm/src/sequence/tasks.cpp): source, decoder input, target.
PAIRS = [
    ("咖哥 喜欢 小冰", "KaGe likes XiaoBing"),
    ("我 爱 学习 人工智能", "I love studying AI"),
    ("深度学习 改变 世界", "DL changed the world"),
    ("自然 语言 处理 很 强大", "NLP is so powerful"),
    ("神经网络 非常 复杂", "Neural-Nets are complex"),
]
SENTENCES = [[src, "<sos> " + tgt, tgt + " <eos>"] for src, tgt in PAIRS]
HIDDEN = 32
STEPS = 400
CELLS = {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}


def enc(t):
    t = t.detach().double()
    return {"shape": list(t.shape), "data": t.flatten().tolist()}


# ---- the safetensors format by hand


def save_safetensors(path, tensors, metadata):
    """tensors: {name: float tensor}, written F32 in the given order; metadata: {str: str}."""
    header, offset, blobs = {"__metadata__": metadata}, 0, []
    for name, t in tensors.items():
        data = t.detach().to(torch.float32).contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def load_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    metadata = header.pop("__metadata__", {})
    base, tensors = 8 + n, {}
    for name, e in header.items():
        assert e["dtype"] == "F32", e
        b, end = e["data_offsets"]
        tensors[name] = torch.frombuffer(bytearray(raw[base + b:base + end]), dtype=torch.float32).reshape(e["shape"])
    return tensors, metadata


def save_translator(path, module, config, src_words, tgt_words):
    """Any reference module + its word lists (index order) -> the interchange file AttentionLab reads."""
    metadata = {
        "config": json.dumps(config, separators=(",", ":")),
        "src_vocab": json.dumps(src_words, ensure_ascii=False),
        "tgt_vocab": json.dumps(tgt_words, ensure_ascii=False),
    }
    save_safetensors(path, dict(module.state_dict()), metadata)


# ---- 1. the book's model


class Encoder(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.rnn = nn.RNN(hidden_size, hidden_size, batch_first=True)

    def forward(self, inputs, hidden):
        output, hidden = self.rnn(self.embedding(inputs), hidden)
        return output, hidden


class Attention(nn.Module):
    def forward(self, decoder_context, encoder_context):
        scores = torch.matmul(decoder_context, encoder_context.transpose(-2, -1))   # dot products
        attn_weights = nn.functional.softmax(scores, dim=-1)
        return torch.matmul(attn_weights, encoder_context), attn_weights


class DecoderWithAttention(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.rnn = nn.RNN(hidden_size, hidden_size, batch_first=True)
        self.attention = Attention()
        self.out = nn.Linear(2 * hidden_size, output_size)

    def forward(self, dec_input, hidden, enc_output):
        output, hidden = self.rnn(self.embedding(dec_input), hidden)
        context, attn_weights = self.attention(output, enc_output)
        output = self.out(torch.cat((output, context), dim=-1))
        return output, hidden, attn_weights


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, enc_input, hidden, dec_input):
        encoder_output, encoder_hidden = self.encoder(enc_input, hidden)
        decoder_output, _, attn_weights = self.decoder(dec_input, encoder_hidden, encoder_output)
        return decoder_output, attn_weights


def word_lists():
    cn, en = [], []
    for s in SENTENCES:
        cn.extend(s[0].split())
        en.extend(s[1].split())
        en.extend(s[2].split())
    return list(dict.fromkeys(cn)), list(dict.fromkeys(en))


def book_model():
    torch.manual_seed(1)
    random.seed(1)
    cn, en = word_lists()
    w2i_cn, w2i_en = {w: i for i, w in enumerate(cn)}, {w: i for i, w in enumerate(en)}
    model = Seq2Seq(Encoder(len(cn), HIDDEN), DecoderWithAttention(HIDDEN, len(en)))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    criterion = nn.CrossEntropyLoss()
    for step in range(STEPS):
        src, dec_in, tgt = random.choice(SENTENCES)
        enc_input = torch.tensor([[w2i_cn[w] for w in src.split()]])
        dec_input = torch.tensor([[w2i_en[w] for w in dec_in.split()]])
        target = torch.tensor([[w2i_en[w] for w in tgt.split()]])
        hidden = torch.zeros(1, 1, HIDDEN)
        optimizer.zero_grad()
        output, _ = model(enc_input, hidden, dec_input)
        loss = criterion(output.view(-1, len(en)), target.view(-1))
        loss.backward()
        optimizer.step()
        if (step + 1) % 100 == 0:
            print(f"book model, step {step + 1}: loss {loss.item():.6f}")
    return model, cn, en


def greedy(step_fn, sos, eos, max_len=32):
    """step_fn(token id) -> logits (Vt); returns the ids before <eos>."""
    out, token = [], sos
    for _ in range(max_len):
        token = int(torch.argmax(step_fn(token)))
        if token == eos:
            break
        out.append(token)
    return out


def book_reference(model, cn, en):
    m = model.double()
    cases = []
    for src, tgt in PAIRS:
        s = torch.tensor([[cn.index(w) for w in src.split()]])
        tin = torch.tensor([[en.index(w) for w in ("<sos> " + tgt).split()]])
        h0 = torch.zeros(1, 1, m.encoder.hidden_size, dtype=torch.float64)
        with torch.no_grad():
            logits, weights = m(s, h0, tin)
            enc_out, enc_h = m.encoder(s, h0)
            state = [enc_h]

            def step(token):
                o, state[0], _ = m.decoder(torch.tensor([[token]]), state[0], enc_out)
                return o[0, 0]

            ids = greedy(step, en.index("<sos>"), en.index("<eos>"))
        cases.append({"source": src, "target": tgt, "logits": enc(logits[0]), "attention": enc(weights[0]),
                      "greedy": " ".join(en[i] for i in ids)})
    return cases


# ---- 2. the project's reference module (gen_seq2seq.py's names), any config


class Reference(nn.Module):
    def __init__(self, c, vs, vt):
        super().__init__()
        hd, e = c["hidden"], c["embedding"]
        self.c = c
        self.encoder = nn.Module()
        self.encoder.embedding = nn.Embedding(vs, e)
        self.encoder.rnn = CELLS[c["cell"]](e, hd, batch_first=True)
        self.decoder = nn.Module()
        self.decoder.embedding = nn.Embedding(vt, e)
        self.decoder.rnn = CELLS[c["cell"]](e, hd, batch_first=True)
        if c["attention"] and c["score"] == "general":
            self.attention = nn.Module()
            self.attention.w = nn.Parameter(torch.empty(hd, hd))
        if c["attention"] and c["score"] == "additive":
            self.attention = nn.Module()
            for name, shape in (("w1", (hd, hd)), ("w2", (hd, hd)), ("b", (hd,)), ("v", (hd,))):
                setattr(self.attention, name, nn.Parameter(torch.empty(*shape)))
        if c["attentionalTanh"]:
            self.attn_dense = nn.Linear(2 * hd, hd)
        self.out = nn.Linear(2 * hd if c["attention"] and not c["attentionalTanh"] else hd, vt)

    def encode(self, src):
        return self.encoder.rnn(self.encoder.embedding(src))

    def decode(self, tgt_in, state, enc_out):
        """(1, T) ids -> (1, T, Vt) logits, attention or None, the new state."""
        dec_out, state = self.decoder.rnn(self.decoder.embedding(tgt_in), state)
        feature, weights, c = dec_out, None, self.c
        if c["attention"]:
            q, k = dec_out, enc_out
            if c["score"] == "dot":
                scores = q @ k.transpose(1, 2)
            elif c["score"] == "scaled":
                scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
            elif c["score"] == "general":
                scores = q @ (k @ self.attention.w.t()).transpose(1, 2)
            elif c["score"] == "additive":
                a = self.attention
                scores = torch.tanh((q @ a.w1.t()).unsqueeze(2) + (k @ a.w2.t()).unsqueeze(1) + a.b) @ a.v
            else:
                raise ValueError(c["score"])
            weights = torch.softmax(scores, dim=-1)
            feature = torch.cat([dec_out, weights @ enc_out], dim=-1)
            if c["attentionalTanh"]:
                feature = torch.tanh(self.attn_dense(feature))
        return self.out(feature), weights, state


def core_reference(path):
    tensors, metadata = load_safetensors(path)
    c = json.loads(metadata["config"])
    src_vocab, tgt_vocab = json.loads(metadata["src_vocab"]), json.loads(metadata["tgt_vocab"])
    if "decoder.out.weight" in tensors:   # exported with the book's names: the book's own classes take it
        book = Seq2Seq(Encoder(len(src_vocab), c["hidden"]), DecoderWithAttention(c["hidden"], len(tgt_vocab)))
        book.load_state_dict(tensors, strict=True)
        return {"file": os.path.basename(path), "config": c, "module": "book",
                "cases": book_reference(book, src_vocab, tgt_vocab)}
    m = Reference(c, len(src_vocab), len(tgt_vocab))
    m.load_state_dict(tensors, strict=True)   # the exported names and shapes are PyTorch's, exactly
    m = m.double()
    cases = []
    with torch.no_grad():
        for src, tgt in PAIRS:
            s = torch.tensor([[src_vocab.index(w) for w in src.split()]])
            tin = torch.tensor([[tgt_vocab.index(w) for w in ("<sos> " + tgt).split()]])
            enc_out, enc_state = m.encode(s)
            logits, weights, _ = m.decode(tin, enc_state, enc_out)
            state = [enc_state]

            def step(token):
                o, _, state[0] = m.decode(torch.tensor([[token]]), state[0], enc_out)
                return o[0, 0]

            ids = greedy(step, tgt_vocab.index("<sos>"), tgt_vocab.index("<eos>"))
            case = {"source": src, "target": tgt, "logits": enc(logits[0]),
                    "greedy": " ".join(tgt_vocab[i] for i in ids)}
            if weights is not None:
                case["attention"] = enc(weights[0])
            cases.append(case)
    return {"file": os.path.basename(path), "config": c, "module": "reference", "cases": cases}


# ---- 3. the Transformer, AttentionLab -> PyTorch


def transformer_reference(path):
    """A Transformer exported from wasm (transformer_note.safetensors) into gen_transformer.py's
    TransformerSeq2Seq with load_state_dict(strict=True): the teacher-forced logits of the five pairs
    (float64, training mode with dropout 0: PyTorch's plain math path) and the greedy translations."""
    from gen_transformer import TransformerSeq2Seq

    tensors, metadata = load_safetensors(path)
    c = json.loads(metadata["config"])
    src_vocab, tgt_vocab = json.loads(metadata["src_vocab"]), json.loads(metadata["tgt_vocab"])
    m = TransformerSeq2Seq(len(src_vocab), len(tgt_vocab), c["dModel"], c["heads"], c["layers"], c["dFF"],
                           c["normFirst"])
    m.load_state_dict(tensors, strict=True)   # the exported names and shapes are PyTorch's, exactly
    m = m.double()
    m.train()
    no_pad = lambda x: torch.zeros_like(x, dtype=torch.bool)
    cases = []
    with torch.no_grad():
        for src, tgt in PAIRS:
            s = torch.tensor([[src_vocab.index(w) for w in src.split()]])
            tin = torch.tensor([[tgt_vocab.index(w) for w in ("<sos> " + tgt).split()]])
            logits = m(s, tin, no_pad(s), no_pad(tin))

            ids, prefix = [], [tgt_vocab.index("<sos>")]
            for _ in range(32):
                t = torch.tensor([prefix])
                token = int(torch.argmax(m(s, t, no_pad(s), no_pad(t))[0, -1]))
                if token == tgt_vocab.index("<eos>"):
                    break
                ids.append(token)
                prefix.append(token)
            cases.append({"source": src, "target": tgt, "logits": enc(logits[0]),
                          "greedy": " ".join(tgt_vocab[i] for i in ids)})
    return {"file": os.path.basename(path), "config": c, "module": "TransformerSeq2Seq", "cases": cases}


def main():
    model, cn, en = book_model()
    config = {"arch": "seq2seq", "cell": "rnn", "hidden": HIDDEN, "embedding": HIDDEN, "attention": True,
              "score": "dot", "attentionalTanh": False, "tokenizer": "words"}
    save_translator(BOOK_FILE, model, config, cn, en)
    ref = {"book": {"file": os.path.basename(BOOK_FILE), "config": config, "src_vocab": cn, "tgt_vocab": en,
                    "cases": book_reference(model, cn, en)},
           "core": [core_reference(p) for p in sorted(glob.glob(os.path.join(REF, "core_*.safetensors")))],
           "transformer": transformer_reference(os.path.join(REF, "transformer_note.safetensors"))}
    for case in ref["book"]["cases"]:
        print(f"book model: {case['source']} -> {case['greedy']}")
    for core in ref["core"]:
        for case in core["cases"]:
            print(f"{core['file']} in PyTorch: {case['source']} -> {case['greedy']}")
    for case in ref["transformer"]["cases"]:
        print(f"transformer_note.safetensors in PyTorch: {case['source']} -> {case['greedy']}")
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(ref, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print("wrote", os.path.relpath(BOOK_FILE, ROOT), "and", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
