// Prints the losses of a training run of the native build as JSON, so the wasm suite
// (tests/wasm/determinism.test.mjs) can check that both builds train alike.
//   seq2seq_losses TASK CELL HIDDEN SCORE|none BATCH LR STEPS SEED
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "rnn/session.h"

int main(int argc, char** argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: seq2seq_losses TASK CELL HIDDEN SCORE|none BATCH LR STEPS SEED\n");
    return 2;
  }
  try {
    lab::SessionConfig config;
    config.task = argv[1];
    config.cell = lab::parse_cell(argv[2]);
    config.hidden = std::atol(argv[3]);
    config.attention = std::string(argv[4]) != "none";
    if (config.attention) config.score = lab::parse_score(argv[4]);
    config.batch_size = std::atol(argv[5]);
    config.learning_rate = std::atof(argv[6]);
    config.seed = std::strtoull(argv[8], nullptr, 10);
    config.task_options.seed = config.seed;  // as the JS front end defaults it
    lab::Seq2SeqSession session(config);
    lab::TrainResult result = session.train(std::atol(argv[7]));
    std::printf("{\"losses\":[");
    for (size_t i = 0; i < result.losses.size(); ++i) {
      std::printf("%s%.9g", i ? "," : "", result.losses[i]);
    }
    std::printf("]}\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "seq2seq_losses: %s\n", e.what());
    return 1;
  }
  return 0;
}
