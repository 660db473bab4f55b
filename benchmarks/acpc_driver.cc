// Benchmark driver for the ACPC dealer's game engine (game.cc), pokerjit's speed reference.
//
// This file is pokerjit's own code; the ACPC sources it links against are NOT part of
// pokerjit. benchmarks/bench_engine.py compiles it in a temporary folder together with
// game.cc, rng.cc and net.cc from ../shared/peers/acpc/ (their licence is there):
//
//     g++ -O2 -DNDEBUG -I ACPC_DIR -o acpc_driver acpc_driver.cc \
//         ACPC_DIR/game.cc ACPC_DIR/rng.cc ACPC_DIR/net.cc
//
// Usage: acpc_driver GAMEFILE HANDS POLICY SEED
//   POLICY: "call" (always check or call) or "random" (the contract's built-in random
//   policy: 15 % fold -- a check when there is nothing to call --, 65 % check or call,
//   20 % raise, half to the minimum and half all-in; a call when no raise is allowed).
// Each hand is played the way the dealer plays one: initState, dealCards (Mersenne
// Twister), every action checked with isValidAction before doAction, and valueOfState
// for every seat at the end. Prints one JSON line:
//   {"hands": N, "seconds": S, "hands_per_s": R, "net": [chips per seat...]}

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "game.h"
#include "rng.h"

using namespace project_acpc_server;

namespace {

// xorshift64*: the policy's own cheap random numbers (the deal uses the dealer's MT).
struct PolicyRng {
  uint64_t s;
  uint32_t next_percent() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    uint64_t x = s * 2685821657736338717ULL;
    return (uint32_t)((x >> 32) % 100u);
  }
};

Action choose(const Game *game, const State *state, bool random_policy, PolicyRng *prng) {
  Action a;
  a.type = a_call;
  a.size = 0;
  if (!random_policy) return a;
  uint32_t u = prng->next_percent();
  if (u < 15) {
    a.type = a_fold;  // isValidAction refuses it when there is nothing to call: then check
    if (!isValidAction(game, state, 0, &a)) {
      a.type = a_call;
      a.size = 0;
    }
    return a;
  }
  if (u < 80) return a;
  int32_t lo = 0, hi = 0;
  if (!raiseIsValid(game, state, &lo, &hi)) return a;  // no raise allowed: call
  a.type = a_raise;
  if (game->bettingType == noLimitBetting) a.size = (u < 90) ? lo : hi;
  return a;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s GAMEFILE HANDS call|random SEED\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    fprintf(stderr, "error: cannot open %s\n", argv[1]);
    return 2;
  }
  Game *game = readGame(f);
  fclose(f);
  if (!game) {
    fprintf(stderr, "error: cannot read the game in %s\n", argv[1]);
    return 2;
  }
  long hands = strtol(argv[2], nullptr, 10);
  bool random_policy = strcmp(argv[3], "random") == 0;
  if (!random_policy && strcmp(argv[3], "call") != 0) {
    fprintf(stderr, "error: unknown policy %s\n", argv[3]);
    return 2;
  }
  uint32_t seed = (uint32_t)strtoul(argv[4], nullptr, 10);
  rng_state_t rng;
  init_genrand(&rng, seed);
  PolicyRng prng{0x9E3779B97F4A7C15ULL ^ (uint64_t)seed};
  double net[MAX_PLAYERS] = {0};
  long actions = 0;
  State state;

  auto t0 = std::chrono::steady_clock::now();
  for (long h = 0; h < hands; ++h) {
    initState(game, (uint32_t)h, &state);
    dealCards(game, &rng, &state);
    while (!stateFinished(&state)) {
      Action a = choose(game, &state, random_policy, &prng);
      if (!isValidAction(game, &state, 0, &a)) {
        fprintf(stderr, "error: invalid action chosen in hand %ld\n", h);
        return 1;
      }
      doAction(game, &a, &state);
      ++actions;
    }
    for (int p = 0; p < game->numPlayers; ++p) net[p] += valueOfState(game, &state, p);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  printf("{\"hands\": %ld, \"actions\": %ld, \"seconds\": %.6f, \"hands_per_s\": %.1f, \"net\": [",
         hands, actions, secs, hands / secs);
  for (int p = 0; p < game->numPlayers; ++p) printf("%s%.1f", p ? ", " : "", net[p]);
  printf("]}\n");
  return 0;
}
