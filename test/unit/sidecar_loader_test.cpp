// The sidecar loader: valid entries load with every field, and each kind of
// malformed input is reported at its file and line.
#include "length_expression.h"
#include "sidecar_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace pilgrim::gen {
namespace {

// ctest runs each test as a process of its own, several at once: every
// file is named for its test and process, so two tests never share one.
std::string write_temp(const std::string &name, const std::string &text) {
  const ::testing::TestInfo *test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = ::testing::TempDir() + (test ? std::string(test->name()) + "." : "") +
                     std::to_string(getpid()) + "." + name;
  std::ofstream(path) << text;
  return path;
}

SidecarSet load(const std::string &text, std::vector<SidecarDiagnostic> &errors) {
  return load_sidecars({write_temp("sidecar.yaml", text)}, errors);
}

TEST(SidecarLoader, LoadsEveryField) {
  std::vector<SidecarDiagnostic> errors;
  auto set = load(R"(MPI_Gatherv:
  id: 12
  note: rooted v-collective
  params:
    sendbuf:    {role: buffer, dir: in, count: sendcount, datatype: sendtype}
    sendcount:  value
    sendtype:   {role: handle, kind: datatype}
    recvbuf:    {role: buffer, dir: out, count: recvcounts, datatype: recvtype, root: root}
    recvcounts: {role: value, len: peers(comm), root: root}
    displs:     {role: value, len: peers(comm), root: root}
    recvtype:   {role: handle, kind: datatype}
    root:       {role: rank, comm: comm, relative: false}
    comm:       {role: handle, kind: comm}
)",
                  errors);
  ASSERT_TRUE(errors.empty()) << errors[0].str();
  const SidecarFunction *f = set.find("MPI_Gatherv");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->id, 12);
  EXPECT_EQ(f->note, "rooted v-collective");
  ASSERT_EQ(f->params.size(), 9u);
  EXPECT_EQ(f->params[0].role, Role::Buffer);
  EXPECT_EQ(f->params[0].count, "sendcount");
  EXPECT_EQ(f->params[2].kind, HandleKind::Datatype);
  EXPECT_EQ(f->params[2].action, HandleAction::Use); // the default
  EXPECT_EQ(f->params[4].len_text, "peers(comm)");
  EXPECT_EQ(f->params[4].root, "root");
  EXPECT_FALSE(f->params[7].relative);
  EXPECT_EQ(f->params[7].comm, "comm");
  EXPECT_EQ(f->param_index("comm"), 8);
}

TEST(SidecarLoader, LoadsFortranChoice) {
  std::vector<SidecarDiagnostic> errors;
  auto set = load("MPI_Get_address:\n  id: 95\n  params:\n"
                  "    location: {role: pointer, fortran_choice: true}\n"
                  "    address:  {role: address, dir: out}\n",
                  errors);
  ASSERT_TRUE(errors.empty()) << errors[0].str();
  const SidecarFunction *f = set.find("MPI_Get_address");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->params[0].fortran_choice);
  EXPECT_FALSE(f->params[1].fortran_choice); // the default
}

TEST(SidecarLoader, ReportsFileAndLine) {
  struct Case {
    const char *yaml;
    int line;
    const char *needle;
  } cases[] = {
      {"MPI_X:\n  id: 1\n  params:\n    a: {role: bogus}\n", 4, "bad role 'bogus'"},
      {"MPI_X:\n  id: 1\n  params:\n    a: nonsense\n", 4, "unknown role 'nonsense'"},
      {"MPI_X:\n  id: 1\n  params:\n    a: {role: value, len: \"n +\"}\n", 4,
       "bad length expression"},
      {"MPI_X:\n  id: 1\n  params:\n    a: {role: value, len: n}\n", 4, "'n' is not a parameter"},
      {"MPI_X:\n  id: 1\n  params:\n    h: {role: handle}\n", 4, "a handle needs 'kind'"},
      {"MPI_X:\n  id: 1\n  params:\n    r: {role: rank}\n", 4, "a rank needs 'comm'"},
      {"MPI_X:\n  id: 1\n  colour: red\n  params:\n", 3, "unknown field 'colour'"},
      {"MPI_X:\n  params:\n    a: value\n", 1, "missing 'id'"},
      {"MPI_X:\n  id: 0\n  params:\n", 2, "id must be an integer"},
      {"PMPI_X:\n  id: 1\n  params:\n", 1, "not an MPI function name"},
      {"MPI_X:\n  id: 1\n  params:\n    a: {role: value\n", 5, ""},
      {"MPI_X:\n  id: 1\n  params:\n    v: {role: value, fortran_choice: true}\n", 4,
       "'fortran_choice' is only for pointers the call reads"},
      {"MPI_X:\n  id: 1\n  params:\n    p: {role: pointer, dir: out, fortran_choice: true}\n", 4,
       "'fortran_choice' is only for pointers the call reads"},
      {"MPI_X:\n  id: 1\n  params:\n    h: {role: handle, kind: comm, action: create}\n", 4,
       "a created handle must be 'out' or 'inout'"},
      {"MPI_X:\n  id: 1\n  params:\n    n: value\n    p: {role: pointer, bytes: n}\n", 5,
       "'bytes' is only for buffers and out pointers"},
      {"MPI_X:\n  id: 1\n  params:\n    r: {role: rank, comm: w}\n    d: {role: value, target: r}\n"
       "    w: {role: handle, kind: win}\n",
       5, "'target' is only for addresses"},
      {"MPI_X:\n  id: 1\n  params:\n    r: {role: rank, comm: c}\n    d: {role: address, target: "
       "r}\n"
       "    c: {role: handle, kind: comm}\n",
       5, "target 'r' must be a rank in a window"},
  };
  for (const auto &c : cases) {
    std::vector<SidecarDiagnostic> errors;
    load(c.yaml, errors);
    ASSERT_FALSE(errors.empty()) << c.yaml;
    EXPECT_EQ(errors[0].loc.line, c.line) << c.yaml << "\n" << errors[0].str();
    EXPECT_NE(errors[0].str().find(c.needle), std::string::npos) << errors[0].str();
    EXPECT_NE(errors[0].str().find("sidecar.yaml:"), std::string::npos);
  }
}

// Memory MPI allocates: an out pointer with the size of the memory.
TEST(SidecarLoader, LoadsTheSizeOfAllocatedMemory) {
  std::vector<SidecarDiagnostic> errors;
  auto set = load("MPI_Alloc_mem:\n  id: 348\n  params:\n    size: value\n"
                  "    info: {role: handle, kind: info}\n"
                  "    baseptr: {role: pointer, dir: out, bytes: size}\n",
                  errors);
  ASSERT_TRUE(errors.empty()) << errors[0].str();
  const SidecarFunction *f = set.find("MPI_Alloc_mem");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->params[2].bytes, "size");
}

TEST(SidecarLoader, RejectsDuplicatesAcrossFiles) {
  std::vector<SidecarDiagnostic> errors;
  auto a = write_temp("a.yaml", "MPI_A:\n  id: 1\n  params:\n");
  auto b = write_temp("b.yaml", "MPI_A:\n  id: 2\n  params:\nMPI_B:\n  id: 1\n  params:\n");
  load_sidecars({a, b}, errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].str().find("MPI_A is annotated twice"), std::string::npos);
  EXPECT_NE(errors[1].str().find("id 1 is already used by MPI_A"), std::string::npos);
}

TEST(SidecarLoader, LoadsTheProjectSidecars) {
  std::vector<SidecarDiagnostic> errors;
  auto files = sidecar_files_in(std::string(PILGRIM_SOURCE_DIR) + "/generator/annotations", errors);
  auto set = load_sidecars(files, errors);
  ASSERT_TRUE(errors.empty()) << errors[0].str();
  EXPECT_GE(set.functions.size(), 700u);
  const SidecarFunction *w = set.find("MPI_Waitsome");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->params[w->param_index("array_of_statuses")].len_text, "outcount");
}

TEST(LengthExpression, LowersToRpnAndCxx) {
  auto e = parse_length("index[nnodes-1] + 2*sum(degrees, n)");
  std::vector<std::string> names;
  length_param_names(*e, names);
  EXPECT_EQ(names, (std::vector<std::string>{"index", "nnodes", "degrees", "n"}));
  auto idx = [](const std::string &n) {
    return n == "nnodes" ? 0 : n == "index" ? 1 : n == "n" ? 2 : 3;
  };
  auto rpn = length_to_rpn(*e, idx);
  ASSERT_EQ(rpn.size(), 9u);
  EXPECT_EQ(rpn[0].op, LenOp::Param);
  EXPECT_EQ(rpn[3].op, LenOp::Elem);
  EXPECT_EQ(rpn.back().op, LenOp::Add);
  std::string cxx = length_to_cxx(
      *e, [](const std::string &n) { return n; }, [](const std::string &n) { return n; });
  EXPECT_EQ(
      cxx,
      "(::pilgrim::rt::len_elem(index, (nnodes - 1)) + (2 * ::pilgrim::rt::len_sum(degrees, n)))");
  EXPECT_THROW(parse_length("peers()"), LengthParseError);
  EXPECT_THROW(parse_length("frobnicate(comm)"), LengthParseError);
  EXPECT_THROW(parse_length("a[1"), LengthParseError);
}

} // namespace
} // namespace pilgrim::gen
