// The records that are not MPI calls (records.yaml) joined like MPI
// functions: no header declares them, so each parameter's C type comes from
// its sidecar's `type`, read here into the prototype the join checks the
// roles against.
#include "function_join.h"

#include <algorithm>
#include <map>

namespace pilgrim::gen {

HeaderParam record_param(const std::string &type) {
  static const std::map<std::string, CType> kBases = {{"void", CType::Void},
                                                      {"int", CType::Int},
                                                      {"long", CType::Long},
                                                      {"char", CType::Char},
                                                      {"double", CType::Double},
                                                      {"MPI_Comm", CType::Handle},
                                                      {"MPI_Group", CType::Handle},
                                                      {"MPI_Datatype", CType::Handle},
                                                      {"MPI_Op", CType::Handle},
                                                      {"MPI_Info", CType::Handle},
                                                      {"MPI_Errhandler", CType::Handle},
                                                      {"MPI_File", CType::Handle},
                                                      {"MPI_Win", CType::Handle},
                                                      {"MPI_Request", CType::Handle},
                                                      {"MPI_Message", CType::Handle},
                                                      {"MPI_Session", CType::Handle},
                                                      {"MPI_Aint", CType::Aint},
                                                      {"MPI_Count", CType::Count},
                                                      {"MPI_Offset", CType::Offset},
                                                      {"MPI_Fint", CType::Fint},
                                                      {"MPI_Status", CType::Status}};
  HeaderParam p;
  p.type = type;
  std::string rest = type;
  if (rest.rfind("const ", 0) == 0) {
    rest = rest.substr(6);
    p.is_const = true;
  }
  std::string base;
  for (char c : rest) {
    if (c == '*')
      ++p.pointer_depth;
    else if (c != ' ')
      base += c;
  }
  p.is_const = p.is_const && p.pointer_depth > 0;
  p.base_name = base;
  const auto it = kBases.find(base);
  if (it != kBases.end()) {
    p.base = it->second;
  } else if (base.size() > 9 && base.compare(base.size() - 9, 9, "_function") == 0 &&
             p.pointer_depth == 1) {
    p.base = CType::Function; // `F *fn` is one function pointer
    p.is_function = true;
    p.pointer_depth = 0;
  }
  p.decl_pattern = type + (type.empty() || type.back() == '*' ? "" : " ") + "@NAME@";
  return p;
}

void join_records(const SidecarSet &sidecars, JoinResult &r) {
  for (const SidecarFunction &sf : sidecars.records) {
    HeaderFunction &hf = r.record_prototypes.emplace_back();
    hf.name = sf.name;
    hf.location = sf.loc.file + ":" + std::to_string(sf.loc.line);
    for (const SidecarParam &sp : sf.params) {
      hf.params.push_back(record_param(sp.type));
      hf.params.back().header_name = sp.name;
      if (hf.params.back().base == CType::Other)
        r.errors.push_back({sp.loc, sf.name + "(" + sp.name + "): unknown C type '" + sp.type +
                                        "' (an MPI handle, MPI_Aint, MPI_Count, MPI_Offset, an "
                                        "integer, char, double, void or a *_function pointer)"});
    }
    JoinedFunction jf;
    jf.header = &hf;
    jf.sidecar = &sf;
    if (join_params(hf, sf, jf, r.errors))
      r.records.push_back(std::move(jf));
  }
  std::sort(r.records.begin(), r.records.end(),
            [](const JoinedFunction &a, const JoinedFunction &b) { return a.id() < b.id(); });
}

} // namespace pilgrim::gen
