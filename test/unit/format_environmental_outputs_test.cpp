// The table of environmental outputs (pilgrim/environmental_outputs.h).
#include "pilgrim/environmental_outputs.h"
#include "sidecar_loader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <set>
#include <string>

namespace pilgrim {
namespace {

const gen::SidecarSet &sidecars() {
  static const gen::SidecarSet set = [] {
    std::vector<gen::SidecarDiagnostic> errors;
    auto files =
        gen::sidecar_files_in(std::string(PILGRIM_SOURCE_DIR) + "/generator/annotations", errors);
    gen::SidecarSet s = gen::load_sidecars(files, errors);
    EXPECT_TRUE(errors.empty());
    return s;
  }();
  return set;
}

TEST(EnvironmentalOutputs, EveryEntryNamesASidecarFunctionAndParameter) {
  for (size_t i = 0; i < kEnvironmentalOutputCount; ++i) {
    const EnvironmentalOutput &o = kEnvironmentalOutputs[i];
    const gen::SidecarFunction *f = sidecars().find(o.function);
    ASSERT_NE(f, nullptr) << o.function;
    const std::string p = o.parameter;
    if (p == "return" || p == "*")
      continue;
    EXPECT_GE(f->param_index(p), 0) << o.function << "(" << p << ")";
    if (o.when == EnvironmentalWhen::ZeroSize) {
      EXPECT_GE(f->param_index("size"), 0) << o.function << " has no size";
    }
  }
}

// Hand-made rows: an info query, and the calls that make infos.
ParamInfo handle(const char *name, HandleKind kind, Direction dir, HandleAction action) {
  return ParamInfo{name, "", CType::Handle, Role::Handle, dir, kind, action, 0, -1, -1,
                   -1,   0,  nullptr,       nullptr};
}
ParamInfo value(const char *name, Role role, Direction dir) {
  return ParamInfo{name,         "", CType::Int, role, dir, HandleKind::None, HandleAction::None,
                   kFlagPointer, -1, -1,         -1,   0,   nullptr,          nullptr};
}
const ParamInfo kNkeys[] = {handle("info", HandleKind::Info, Direction::In, HandleAction::Use),
                            value("nkeys", Role::Value, Direction::Out)};
const ParamInfo kCreate[] = {
    handle("info", HandleKind::Info, Direction::Out, HandleAction::Create)};
const ParamInfo kDup[] = {
    handle("info", HandleKind::Info, Direction::In, HandleAction::Use),
    handle("newinfo", HandleKind::Info, Direction::Out, HandleAction::Create)};
const ParamInfo kGetInfo[] = {
    handle("comm", HandleKind::Comm, Direction::In, HandleAction::Use),
    handle("info_used", HandleKind::Info, Direction::Out, HandleAction::Create)};
const FunctionInfo kNkeysFn{381, "MPI_Info_get_nkeys", 2, kNkeys};
const FunctionInfo kCreateFn{377, "MPI_Info_create", 1, kCreate};
const FunctionInfo kDupFn{379, "MPI_Info_dup", 2, kDup};
const FunctionInfo kGetInfoFn{35, "MPI_Comm_get_info", 2, kGetInfo};

DecodedValue one(uint64_t code) {
  DecodedValue v;
  v.array = true;
  v.elements.resize(1);
  v.elements[0].code = code;
  return v;
}
uint64_t user(uint64_t id) { return 2 * id + 2; }

// A hand-made call and its decoded form (which points into it).
struct TestCall {
  std::unique_ptr<DecodedCall> coded;
  Call call;
  operator const Call &() const { return call; }
};

TestCall call(const FunctionInfo &f, std::vector<std::pair<bool, uint64_t>> params) {
  auto c = std::make_unique<DecodedCall>();
  c->function_id = f.id;
  c->function = &f;
  for (size_t p = 0; p < params.size(); ++p) {
    DecodedParam dp;
    const bool out = f.params[p].dir != Direction::In;
    (out ? dp.has_out : dp.has_in) = true;
    (out ? dp.out : dp.in) = one(params[p].second);
    c->params.push_back(dp);
  }
  Call resolved = resolve_call(*c);
  return TestCall{std::move(c), std::move(resolved)};
}

TEST(EnvironmentalOutputs, InfosMpiFilledInAndTheirDuplicates) {
  EnvironmentalOutputs env;
  const TestCall nkeys_env = call(kNkeysFn, {{true, 1 /* MPI_INFO_ENV */}, {false, 0}});
  EXPECT_TRUE(env.environmental(nkeys_env, 1));
  EXPECT_FALSE(env.environmental(nkeys_env, 0)); // the handle itself is compared
  EXPECT_FALSE(env.environmental(nkeys_env, -1));

  env.apply(call(kCreateFn, {{false, user(0)}})); // info#0: the program's
  EXPECT_FALSE(env.environmental(call(kNkeysFn, {{true, user(0)}, {false, 0}}), 1));
  env.apply(call(kGetInfoFn, {{true, 1}, {false, user(1)}})); // info#1: MPI's
  EXPECT_TRUE(env.environmental(call(kNkeysFn, {{true, user(1)}, {false, 0}}), 1));
  env.apply(call(kDupFn, {{true, user(1)}, {false, user(2)}})); // a duplicate of MPI's
  EXPECT_TRUE(env.environmental(call(kNkeysFn, {{true, user(2)}, {false, 0}}), 1));
  env.apply(call(kDupFn, {{true, user(0)}, {false, user(1)}})); // id 1 reused for the program's
  EXPECT_FALSE(env.environmental(call(kNkeysFn, {{true, user(1)}, {false, 0}}), 1));
}

// Distributed graphs: the neighbors MPI collected for MPI_Dist_graph_create
// are compared in any order, those of MPI_Dist_graph_create_adjacent exactly.
const ParamInfo kGraphCreate[] = {
    handle("comm_old", HandleKind::Comm, Direction::In, HandleAction::Use),
    handle("comm_dist_graph", HandleKind::Comm, Direction::Out, HandleAction::Create)};
const ParamInfo kNeighbors[] = {handle("comm", HandleKind::Comm, Direction::In, HandleAction::Use),
                                value("sources", Role::Rank, Direction::Out),
                                value("sourceweights", Role::Value, Direction::Out)};
const FunctionInfo kCreateGraphFn{303, "MPI_Dist_graph_create", 2, kGraphCreate};
const FunctionInfo kAdjacentFn{304, "MPI_Dist_graph_create_adjacent", 2, kGraphCreate};
const FunctionInfo kNeighborsFn{305, "MPI_Dist_graph_neighbors", 3, kNeighbors};

TEST(EnvironmentalOutputs, NeighborsOfGeneralDistGraphsInAnyOrder) {
  EnvironmentalOutputs env;
  const TestCall neighbors = call(kNeighborsFn, {{true, user(0)}, {false, 0}, {false, 0}});
  env.apply(call(kCreateGraphFn, {{true, 1}, {false, user(0)}}));
  EXPECT_TRUE(env.unordered(neighbors, 1));
  EXPECT_TRUE(env.unordered(neighbors, 2));
  EXPECT_FALSE(env.unordered(neighbors, 0));
  EXPECT_FALSE(env.environmental(neighbors, 1));               // compared, in any order
  env.apply(call(kAdjacentFn, {{true, 1}, {false, user(0)}})); // comm#0 reused
  EXPECT_FALSE(env.unordered(neighbors, 1));
}

} // namespace
} // namespace pilgrim
