#include "pilgrim/call_sites.h"

#include <cstdio>

namespace pilgrim {

namespace {

std::string last_component(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

const CallSite *call_site(const Trace &trace, uint64_t terminal) {
  const MergedTrace &m = trace.merged;
  if (terminal >= m.cst.size())
    return nullptr;
  const uint32_t ref = m.cst[terminal].site;
  return ref == 0 || ref > m.sites.size() ? nullptr : &m.sites[ref - 1];
}

std::string site_text(const CallSite &site) {
  std::string s;
  if (!site.file.empty()) {
    s = last_component(site.file) + ":" + std::to_string(site.line);
    if (site.column != 0)
      s += ":" + std::to_string(site.column);
  } else {
    char hex[32];
    std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(site.address));
    s = (site.module.empty() ? std::string("?") : last_component(site.module)) + hex;
  }
  if (!site.function.empty()) {
    s += " in " + site.function;
    if (site.function.find('(') == std::string::npos)
      s += "()";
  }
  return s;
}

} // namespace pilgrim
