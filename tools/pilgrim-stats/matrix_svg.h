// The communication matrix as an SVG heat map (pilgrim-stats --matrix-svg,
// docs/STATS.md): senders down, receivers across, one cell per pair
// coloured by its value on a linear scale (pairs with nothing light grey),
// axes with rank labels that thin out as ranks grow (a label every 1, 2, 5,
// 10, 20, 50, ... ranks, at least 24 pixels apart), a colour bar, and a
// title. The image is kSvgWidth x kSvgHeight pixels whatever the ranks.
#pragma once

#include <cstdint>
#include <string>

#include "matrix_model.h"

namespace pilgrim::stats {

constexpr int kSvgWidth = 720;
constexpr int kSvgHeight = 650;

struct HeatMapSpec {
  std::string title;    // first line, e.g. "Point-to-point bytes, sender to receiver"
  std::string subtitle; // second line, e.g. the trace and its ranks
  std::string unit;     // the colour bar's label: "bytes" or "messages"
  bool bytes = true;    // colour by bytes (else by messages)
};

// The SVG document of `m` (nranks x nranks).
std::string matrix_svg(const SparseMatrix &m, uint32_t nranks, const HeatMapSpec &spec);

// The step between labelled ranks for `nranks` ranks over `pixels` pixels:
// the smallest of 1, 2, 5, 10, 20, 50, ... that leaves `min_gap` pixels
// between labels.
uint32_t label_step(uint32_t nranks, double pixels, double min_gap);

} // namespace pilgrim::stats
