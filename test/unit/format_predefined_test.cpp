// The predefined name tables are part of the file format: pin them.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "pilgrim/datatype_sizes.h"
#include "pilgrim/predefined_handles.h"

namespace pilgrim {
namespace {

TEST(FormatPredefined, PinnedIndices) {
  // Indices written into traces. Changing any of these breaks old traces.
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_CHAR"), 0);
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_INT"), 6);
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_DOUBLE"), 14);
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_UINT64_T"), 25);
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_PACKED"), 39);
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_CXX_BOOL"), 68);
  EXPECT_EQ(find_predefined_handle(HandleKind::Datatype, "MPI_2DOUBLE_COMPLEX"), 73);
  EXPECT_EQ(find_predefined_handle(HandleKind::Comm, "MPI_COMM_WORLD"), 0);
  EXPECT_EQ(find_predefined_handle(HandleKind::Comm, "MPI_COMM_SELF"), 1);
  EXPECT_EQ(find_predefined_handle(HandleKind::Group, "MPI_GROUP_EMPTY"), 0);
  EXPECT_EQ(find_predefined_handle(HandleKind::Op, "MPI_SUM"), 2);
  EXPECT_EQ(find_predefined_handle(HandleKind::Op, "MPI_NO_OP"), 13);
  EXPECT_EQ(find_predefined_handle(HandleKind::Errhandler, "MPI_ERRORS_ABORT"), 2);
  EXPECT_EQ(find_predefined_handle(HandleKind::Info, "MPI_INFO_ENV"), 0);
  EXPECT_EQ(find_predefined_handle(HandleKind::Message, "MPI_MESSAGE_NO_PROC"), 0);
  EXPECT_EQ(find_predefined_handle(HandleKind::Keyval, "MPI_TAG_UB"), 0);
  EXPECT_EQ(find_predefined_handle(HandleKind::Keyval, "MPI_WIN_MODEL"), 11);
  EXPECT_EQ(find_predefined_callback("MPI_COMM_NULL_COPY_FN"), 0);
  EXPECT_EQ(find_predefined_callback("MPI_CONVERSION_FN_NULL"), 12);
  EXPECT_EQ(find_predefined_handle(HandleKind::Comm, "MPI_INT"), -1);
  EXPECT_EQ(find_predefined_handle(HandleKind::Fd, "STDOUT_FILENO"), 1);
  EXPECT_EQ(find_predefined_handle(HandleKind::Fd, "AT_FDCWD"), 3);
  EXPECT_EQ(find_predefined_handle(HandleKind::Stream, "stderr"), 2);
  // Lower bounds on the sizes (tables only grow).
  EXPECT_GE(kPredefinedDatatypeCount, 74u);
  EXPECT_GE(kPredefinedOpCount, 14u);
  EXPECT_GE(kPredefinedKeyvalCount, 12u);
  EXPECT_GE(kPredefinedCallbackCount, 13u);
  EXPECT_EQ(predefined_handle_names(HandleKind::Request).count, 0u);
  EXPECT_EQ(predefined_handle_names(HandleKind::File).count, 0u);
  EXPECT_EQ(predefined_handle_names(static_cast<HandleKind>(200)).count, 0u);
}

TEST(FormatPredefined, NamesAreUniquePerKind) {
  for (int k = 0; k < kHandleKindCount; ++k) {
    const NameTable t = predefined_handle_names(static_cast<HandleKind>(k));
    std::set<std::string> seen;
    for (size_t i = 0; i < t.count; ++i) {
      EXPECT_TRUE(seen.insert(t.names[i]).second) << t.names[i];
      // POSIX descriptors and streams (format 7) have the C library's names.
      if (k != static_cast<int>(HandleKind::Fd) && k != static_cast<int>(HandleKind::Stream)) {
        EXPECT_EQ(std::strncmp(t.names[i], "MPI_", 4), 0);
      }
    }
    EXPECT_EQ(t[t.count], nullptr);
  }
}

TEST(FormatPredefined, NullNamesAndPrefixes) {
  EXPECT_STREQ(null_handle_name(HandleKind::Comm), "MPI_COMM_NULL");
  EXPECT_STREQ(null_handle_name(HandleKind::Datatype), "MPI_DATATYPE_NULL");
  EXPECT_STREQ(null_handle_name(HandleKind::Request), "MPI_REQUEST_NULL");
  EXPECT_STREQ(null_handle_name(HandleKind::Keyval), "MPI_KEYVAL_INVALID");
  EXPECT_STREQ(null_handle_name(HandleKind::Session), "MPI_SESSION_NULL");
  EXPECT_STREQ(handle_id_prefix(HandleKind::Comm), "comm");
  EXPECT_STREQ(handle_id_prefix(HandleKind::Request), "req");
  EXPECT_STREQ(handle_id_prefix(HandleKind::Datatype), "type");
}

TEST(FormatPredefined, DatatypeSizesCoverEveryDatatype) {
  for (size_t k = 0; k < kPredefinedDatatypeCount; ++k)
    EXPECT_GE(predefined_datatype_size(k), 0) << k;
  EXPECT_EQ(predefined_datatype_size(kPredefinedDatatypeCount), -1);
  EXPECT_EQ(predefined_datatype_size(6), 4);   // MPI_INT
  EXPECT_EQ(predefined_datatype_size(34), 12); // MPI_DOUBLE_INT: MPI_Type_size, no padding
}

} // namespace
} // namespace pilgrim
