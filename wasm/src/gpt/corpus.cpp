#include "gpt/corpus.h"

#include <algorithm>
#include <string>

namespace lab {

namespace {

// The code points of UTF-8 text; InputError at the first invalid sequence.
std::vector<uint32_t> decode_utf8(const std::string& s) {
  std::vector<uint32_t> out;
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80           ? 1
                  : (b >> 5) == 0x6  ? 2
                  : (b >> 4) == 0xe  ? 3
                  : (b >> 3) == 0x1e ? 4
                                     : 0;
    bool ok = n > 0 && i + n <= s.size();
    uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1f) : n == 3 ? (b & 0x0f) : (b & 0x07);
    for (int k = 1; ok && k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      ok = (c >> 6) == 0x2;
      cp = (cp << 6) | (c & 0x3f);
    }
    // no overlong forms, surrogates or code points past U+10FFFF
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kMin[n] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    if (!ok) throw InputError("the text is not valid UTF-8 at byte " + std::to_string(i));
    out.push_back(cp);
    i += n;
  }
  return out;
}

std::string encode_utf8(uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xc0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xe0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    s += static_cast<char>(0xf0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  }
  return s;
}

}  // namespace

CharVocab CharVocab::from_text(const std::string& text) {
  CharVocab v;
  v.points_ = decode_utf8(text);
  std::sort(v.points_.begin(), v.points_.end());
  v.points_.erase(std::unique(v.points_.begin(), v.points_.end()), v.points_.end());
  if (v.points_.size() < 2) {
    throw InputError("the text has " + std::to_string(v.points_.size()) +
                     " distinct characters: a vocabulary needs at least 2");
  }
  for (uint32_t cp : v.points_) v.chars_.push_back(encode_utf8(cp));
  return v;
}

std::vector<int32_t> CharVocab::encode(const std::string& text) const {
  const std::vector<uint32_t> cps = decode_utf8(text);
  std::vector<int32_t> ids;
  ids.reserve(cps.size());
  for (size_t i = 0; i < cps.size(); ++i) {
    const auto it = std::lower_bound(points_.begin(), points_.end(), cps[i]);
    if (it == points_.end() || *it != cps[i]) {
      throw InputError("character " + std::to_string(i) + " (\"" + encode_utf8(cps[i]) +
                       "\") is not in the vocabulary");
    }
    ids.push_back(static_cast<int32_t>(it - points_.begin()));
  }
  return ids;
}

std::string CharVocab::decode(const std::vector<int32_t>& ids) const {
  std::string s;
  for (int32_t id : ids) {
    if (id < 0 || id >= size()) {
      throw InputError("id " + std::to_string(id) + " is outside the vocabulary [0, " +
                       std::to_string(size()) + ")");
    }
    s += chars_[id];
  }
  return s;
}

std::vector<std::string> CharVocab::missing(const std::string& text) const {
  std::vector<uint32_t> seen;
  std::vector<std::string> out;
  for (uint32_t cp : decode_utf8(text)) {
    if (std::binary_search(points_.begin(), points_.end(), cp)) continue;
    if (std::find(seen.begin(), seen.end(), cp) != seen.end()) continue;
    seen.push_back(cp);
    out.push_back(encode_utf8(cp));
  }
  return out;
}

GptBatch sample_windows(const std::vector<int32_t>& ids, long B, long T, Rng& rng) {
  const long n = static_cast<long>(ids.size());
  if (n <= T) {
    throw InputError("the text has " + std::to_string(n) + " tokens: windows of " +
                     std::to_string(T) + " positions need at least " + std::to_string(T + 1));
  }
  GptBatch b;
  b.B = B;
  b.T = T;
  for (long r = 0; r < B; ++r) {
    const long start = rng.below(n - T);
    b.idx.insert(b.idx.end(), ids.begin() + start, ids.begin() + start + T);
    b.targets.insert(b.targets.end(), ids.begin() + start + 1, ids.begin() + start + T + 1);
  }
  return b;
}

bool drill_keeps(uint32_t point) {
  // \n \r ， 。 ？ ！ ； 、 ： , . ? ! ; :
  constexpr uint32_t kKept[] = {0x0a,   0x0d,   0xff0c, 0x3002, 0xff1f, 0xff01, 0xff1b, 0x3001,
                                0xff1a, 0x002c, 0x002e, 0x003f, 0x0021, 0x003b, 0x003a};
  return std::find(std::begin(kKept), std::end(kKept), point) != std::end(kKept);
}

namespace {
// A form drill (FormDrills) appended to b as its next row.
void drill_window(GptBatch& b, const FormDrills& d, long T, Rng& rng) {
  const std::vector<int32_t>& shape =
      d.shapes[static_cast<size_t>(rng.below(static_cast<long>(d.shapes.size())))];
  const auto n = static_cast<long>(shape.size());
  std::vector<int32_t> w(static_cast<size_t>(std::min(n, T + 1)));
  for (size_t t = 0; t < w.size(); ++t) {
    w[t] = shape[t] != kDrillFill
               ? shape[t]
               : d.content[static_cast<size_t>(rng.below(static_cast<long>(d.content.size())))];
  }
  // the ids past the poem's end are never read by a target (attention is causal): the line break
  for (long t = 0; t < T; ++t) {
    b.idx.push_back(t < n ? w[static_cast<size_t>(t)] : shape.back());
    b.targets.push_back(t + 1 < n ? w[static_cast<size_t>(t + 1)] : kGptIgnoreTarget);
  }
}
}  // namespace

GptBatch sample_windows_at(const std::vector<int32_t>& ids, const std::vector<PoemWindow>& windows,
                           long B, long T, Rng& rng, const FormDrills* drills) {
  const long n = static_cast<long>(ids.size());
  if (windows.empty() || n == 0) throw InputError("the text has no poem to start a window at");
  GptBatch b;
  b.B = B;
  b.T = T;
  b.idx.reserve(static_cast<size_t>(B * T));
  b.targets.reserve(static_cast<size_t>(B * T));
  for (long r = 0; r < B; ++r) {
    // drills->share 0 draws nothing here, so a session without drills draws what it always has
    if (drills && drills->share > 0 && rng.uniform01() < drills->share) {
      drill_window(b, *drills, T, rng);
      continue;
    }
    const PoemWindow& w =
        windows[static_cast<size_t>(rng.below(static_cast<long>(windows.size())))];
    for (long t = 0; t < T; ++t) {
      b.idx.push_back(ids[static_cast<size_t>((w.start + t) % n)]);
      // target t is the id after position t while that id is still the window's poem's
      b.targets.push_back(t < w.targets ? ids[static_cast<size_t>((w.start + t + 1) % n)]
                                        : kGptIgnoreTarget);
    }
  }
  return b;
}

}  // namespace lab
