// The records that are not MPI calls (generator/annotations/records.yaml,
// pilgrim/record_ranges.h): the sidecar loads with every record in its
// kind's range, joins into rows of the shape the readers and the runtime
// expect, and each malformed record is reported at its file and line.
#include "function_join.h"
#include "pilgrim/callback_records.h"
#include "pilgrim/record_ranges.h"
#include "sidecar_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <set>
#include <string>

namespace pilgrim::gen {
namespace {

JoinResult joined_records(const std::vector<std::string> &files,
                          std::vector<SidecarDiagnostic> &errors) {
  static std::deque<SidecarSet> keep; // the joined rows point into their sidecars
  keep.push_back(load_sidecars(files, errors));
  JoinResult r;
  join_records(keep.back(), r);
  errors.insert(errors.end(), r.errors.begin(), r.errors.end());
  return r;
}

TEST(RecordRanges, CoverTheRangeInOrderOutsideEveryMpiId) {
  uint32_t next = kFirstRecordId;
  for (const RecordRange &r : kRecordRanges) {
    EXPECT_EQ(r.first, next) << r.name;
    EXPECT_LE(r.first, r.last) << r.name;
    EXPECT_EQ(record_kind(r.first), r.kind);
    EXPECT_EQ(record_kind(r.last), r.kind);
    next = r.last + 1u;
  }
  EXPECT_EQ(next, kLastRecordId + 1u);
  EXPECT_EQ(record_kind(kCommCopyRecord), RecordKind::Callback);
  EXPECT_EQ(record_kind(kDatatypeLayoutRecord), RecordKind::Fact);
  EXPECT_FALSE(is_record(700));
  EXPECT_FALSE(is_record(0x8000));
  EXPECT_EQ(record_kind(1), RecordKind::None);
}

TEST(RecordsSidecar, EveryRecordJoinsInItsKindsRange) {
  std::vector<SidecarDiagnostic> errors;
  const std::string dir = std::string(PILGRIM_SOURCE_DIR) + "/generator/annotations";
  const SidecarSet all = load_sidecars(sidecar_files_in(dir, errors), errors);
  const JoinResult r = joined_records({dir + "/records.yaml"}, errors);
  ASSERT_TRUE(errors.empty()) << errors[0].str();
  ASSERT_EQ(r.records.size(), 30u); // 7, 19 posix records (format 7), 4 markers (format 8)
  std::set<int> ids;
  for (const JoinedFunction &f : r.records) {
    EXPECT_TRUE(ids.insert(f.id()).second) << f.name();
    EXPECT_EQ(record_kind(static_cast<uint16_t>(f.id())), f.sidecar->kind) << f.name();
    EXPECT_EQ(all.find(f.name()), nullptr) << f.name() << " is also an MPI function";
    CallbackRecordKind kind;
    if (callback_record_kind(static_cast<uint16_t>(f.id()), kind)) {
      // The shape proxygen's callback_outcomes.cpp and the runtime expect.
      ASSERT_EQ(f.params.size(), kind.copy ? 7u : 5u) << f.name();
      EXPECT_EQ(f.params[0].sidecar->role, Role::Callback);
      EXPECT_EQ(f.params[0].header->base, CType::Function);
      EXPECT_EQ(f.params[0].flags, 0); // one function pointer, not a pointer to one
      EXPECT_EQ(f.params[1].sidecar->kind, kind.object);
      EXPECT_EQ(f.params[2].sidecar->kind, HandleKind::Keyval);
      if (kind.copy) {
        EXPECT_EQ(f.params[6].sidecar->name, "flag");
        EXPECT_EQ(f.params[6].sidecar->dir, Direction::Out);
        EXPECT_EQ(f.params[6].flags, kFlagPointer);
      }
    }
  }
  const auto layout = std::find_if(r.records.begin(), r.records.end(), [](const JoinedFunction &f) {
    return f.id() == kDatatypeLayoutRecord;
  });
  ASSERT_NE(layout, r.records.end());
  EXPECT_EQ(layout->name(), "pilgrim_datatype_layout");
  const char *names[] = {"datatype", "size", "lb", "ub", "true_lb", "true_ub"};
  ASSERT_EQ(layout->params.size(), 6u);
  for (size_t i = 0; i < 6; ++i)
    EXPECT_EQ(layout->params[i].sidecar->name, names[i]);
  EXPECT_EQ(layout->params[2].sidecar->role, Role::Address);
  EXPECT_EQ(layout->params[2].header->base, CType::Count);
  // The markers the runtime records and the model reads by these ids.
  const std::pair<uint16_t, const char *> markers[] = {{kPcontrolMarker, "pilgrim_pcontrol"},
                                                       {kTraceOffMarker, "pilgrim_trace_off"},
                                                       {kTraceOnMarker, "pilgrim_trace_on"},
                                                       {kPhaseMarker, "pilgrim_phase"}};
  for (const auto &[id, name] : markers) {
    const auto m = std::find_if(r.records.begin(), r.records.end(),
                                [id = id](const JoinedFunction &f) { return f.id() == id; });
    ASSERT_NE(m, r.records.end()) << name;
    EXPECT_EQ(m->name(), name);
  }
}

TEST(RecordsSidecar, ReadsCTypes) {
  const HeaderParam fn = record_param("MPI_Win_copy_attr_function *");
  EXPECT_TRUE(fn.is_function);
  EXPECT_EQ(fn.pointer_depth, 0);
  const HeaderParam flag = record_param("const int *");
  EXPECT_EQ(flag.base, CType::Int);
  EXPECT_EQ(flag.pointer_depth, 1);
  EXPECT_TRUE(flag.is_const);
  EXPECT_EQ(record_param("MPI_Datatype").base, CType::Handle);
  EXPECT_EQ(record_param("FILE *").base, CType::Other);
}

TEST(RecordsSidecar, ReportsMalformedRecordsAtTheirLine) {
  struct Case {
    const char *yaml;
    int line;
    const char *message;
  };
  const Case cases[] = {
      {"rec:\n  id: 0x3E00\n  kind: phase\n  params:\n", 3, "rec: bad kind 'phase'"},
      {"rec:\n  id: 0x3F10\n  kind: fact\n  params:\n", 2,
       "rec: a record of kind fact needs an id in 0x3E00-0x3EFF"},
      {"MPI_Foo:\n  id: 0x3D00\n  params:\n", 2,
       "MPI_Foo: ids 0x3000-0x3FFF are the records that are not MPI calls"},
      {"rec:\n  id: 0x3D00\n  kind: marker\n  params:\n    level: value\n", 5,
       "rec(level): a record's parameter needs 'type'"},
      {"MPI_Foo:\n  id: 5\n  params:\n    level: {role: value, type: int}\n", 4,
       "MPI_Foo(level): 'type' is only for records"},
      {"rec:\n  id: 0x3D00\n  kind: marker\n  params:\n    f: {role: value, type: FILE}\n", 5,
       "rec(f): unknown C type 'FILE'"},
      {"rec:\n  id: 0x3D00\n  kind: marker\n  params:\n    n: {role: handle, kind: comm, type: "
       "int}\n",
       5, "rec(n): role handle needs an MPI handle type"},
      {"MPI_Type_commit:\n  id: 5\n  params:\n    t: {role: value, layout: true}\n", 4,
       "'layout' is only for datatype handles"},
  };
  for (const Case &c : cases) {
    const std::string path = ::testing::TempDir() + "records.yaml";
    std::ofstream(path) << c.yaml;
    std::vector<SidecarDiagnostic> errors;
    joined_records({path}, errors);
    ASSERT_FALSE(errors.empty()) << c.yaml;
    EXPECT_EQ(errors[0].loc.line, c.line) << c.yaml;
    EXPECT_NE(errors[0].message.find(c.message), std::string::npos)
        << errors[0].message << "\n  expected: " << c.message;
  }
}

} // namespace
} // namespace pilgrim::gen
