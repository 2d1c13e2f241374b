#include "matrix_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pilgrim::stats {

namespace {

constexpr double kLeft = 80, kTop = 70, kPlot = 512, kBarGap = 30, kBarWidth = 20;

// Viridis, sampled and reversed: low values yellow, high values dark
// violet, which stands out most on the light grey of pairs with nothing.
constexpr int kStops = 5;
constexpr unsigned char kRamp[kStops][3] = {{0xfd, 0xe7, 0x25},
                                            {0x5e, 0xc9, 0x62},
                                            {0x21, 0x91, 0x8c},
                                            {0x3b, 0x52, 0x8b},
                                            {0x44, 0x01, 0x54}};

std::string colour(double t) {
  t = std::min(1.0, std::max(0.0, t)) * (kStops - 1);
  const int i = std::min(kStops - 2, static_cast<int>(t));
  const double f = t - i;
  char buf[8];
  unsigned char c[3];
  for (int k = 0; k < 3; ++k)
    c[k] =
        static_cast<unsigned char>(std::lround(kRamp[i][k] + f * (kRamp[i + 1][k] - kRamp[i][k])));
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

std::string xml_escape(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      // Control characters are not allowed in XML 1.0.
      out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s;
}

// A value for the colour bar: exact below 10^5, else 3 significant digits
// with k, M, G, T, P or E (10^3 ... 10^18): "400k", "1.28M".
std::string value_text(double v) {
  char buf[32];
  if (v < 1e5) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  const char *suffix = "kMGTPE";
  int k = 0;
  v /= 1e3;
  while (v >= 999.5 && suffix[k + 1]) {
    v /= 1e3;
    ++k;
  }
  std::snprintf(buf, sizeof buf, "%.3g%c", v, suffix[k]);
  return buf;
}

std::string text(double x, double y, const std::string &s, const char *anchor, int size,
                 const std::string &extra = std::string()) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor +
         "\" font-size=\"" + std::to_string(size) + "\"" + extra + ">" + xml_escape(s) +
         "</text>\n";
}

} // namespace

uint32_t label_step(uint32_t nranks, double pixels, double min_gap) {
  const double cell = nranks ? pixels / nranks : pixels;
  uint64_t base = 1;
  while (true) {
    for (uint64_t m : {1u, 2u, 5u})
      if (cell * static_cast<double>(base * m) >= min_gap || base * m >= nranks)
        return static_cast<uint32_t>(std::max<uint64_t>(1, base * m));
    base *= 10;
  }
}

std::string matrix_svg(const SparseMatrix &m, uint32_t nranks, const HeatMapSpec &spec) {
  const auto cells = m.sorted();
  uint64_t max = 0;
  for (const auto &kv : cells)
    max = std::max(max, spec.bytes ? kv.second.bytes : kv.second.messages);
  const double n = std::max<uint32_t>(nranks, 1);
  const double cell = kPlot / n;
  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kSvgWidth) +
       "\" height=\"" + std::to_string(kSvgHeight) + "\" viewBox=\"0 0 " +
       std::to_string(kSvgWidth) + " " + std::to_string(kSvgHeight) +
       "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += text(kSvgWidth / 2.0, 28, spec.title, "middle", 16, " font-weight=\"bold\"");
  s += text(kSvgWidth / 2.0, 48, spec.subtitle, "middle", 12);
  // The plot: pairs with nothing in grey, the others coloured.
  s += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kPlot) +
       "\" height=\"" + num(kPlot) + "\" fill=\"#eeeeee\"/>\n";
  s += "<g shape-rendering=\"crispEdges\">\n";
  for (const auto &kv : cells) {
    const uint64_t v = spec.bytes ? kv.second.bytes : kv.second.messages;
    const double t = max ? static_cast<double>(v) / static_cast<double>(max) : 0;
    s += "<rect x=\"" + num(kLeft + kv.first.second * cell) + "\" y=\"" +
         num(kTop + kv.first.first * cell) + "\" width=\"" + num(cell) + "\" height=\"" +
         num(cell) + "\" fill=\"" + colour(t) + "\"/>\n";
  }
  s += "</g>\n";
  s += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kPlot) +
       "\" height=\"" + num(kPlot) + "\" fill=\"none\" stroke=\"#000000\"/>\n";
  // Axes: a tick and a label every `step` ranks, at the cell's centre.
  const uint32_t step = label_step(nranks, kPlot, 24);
  for (uint32_t r = 0; r < nranks; r += step) {
    const double c = (r + 0.5) * cell;
    s += "<line x1=\"" + num(kLeft + c) + "\" y1=\"" + num(kTop + kPlot) + "\" x2=\"" +
         num(kLeft + c) + "\" y2=\"" + num(kTop + kPlot + 4) + "\" stroke=\"#000000\"/>\n";
    s += text(kLeft + c, kTop + kPlot + 16, std::to_string(r), "middle", 10);
    s += "<line x1=\"" + num(kLeft - 4) + "\" y1=\"" + num(kTop + c) + "\" x2=\"" + num(kLeft) +
         "\" y2=\"" + num(kTop + c) + "\" stroke=\"#000000\"/>\n";
    s += text(kLeft - 6, kTop + c + 3.5, std::to_string(r), "end", 10);
  }
  s += text(kLeft + kPlot / 2, kTop + kPlot + 40, "receiver (world rank)", "middle", 12);
  s += text(24, kTop + kPlot / 2, "sender (world rank)", "middle", 12,
            " transform=\"rotate(-90 24 " + num(kTop + kPlot / 2) + ")\"");
  // The colour bar, high values at the top.
  const double bx = kLeft + kPlot + kBarGap;
  s += "<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">\n";
  for (int i = 0; i < kStops; ++i)
    s += "<stop offset=\"" + num(static_cast<double>(i) / (kStops - 1)) + "\" stop-color=\"" +
         colour(static_cast<double>(i) / (kStops - 1)) + "\"/>\n";
  s += "</linearGradient></defs>\n";
  s += "<rect x=\"" + num(bx) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kBarWidth) +
       "\" height=\"" + num(kPlot) + "\" fill=\"url(#scale)\" stroke=\"#000000\"/>\n";
  for (int i = 0; i <= 4; ++i) {
    const double y = kTop + kPlot - kPlot * i / 4.0;
    s += "<line x1=\"" + num(bx + kBarWidth) + "\" y1=\"" + num(y) + "\" x2=\"" +
         num(bx + kBarWidth + 4) + "\" y2=\"" + num(y) + "\" stroke=\"#000000\"/>\n";
    s += text(bx + kBarWidth + 6, y + 3.5, value_text(static_cast<double>(max) * i / 4.0), "start",
              10);
  }
  s += text(bx + kBarWidth / 2, kTop - 8, spec.unit, "middle", 11);
  s += "<rect x=\"" + num(bx) + "\" y=\"" + num(kTop + kPlot + 12) + "\" width=\"" +
       num(kBarWidth) + "\" height=\"10\" fill=\"#eeeeee\" stroke=\"#000000\"/>\n";
  s += text(bx + kBarWidth + 6, kTop + kPlot + 21, "none", "start", 10);
  s += "</svg>\n";
  return s;
}

} // namespace pilgrim::stats
