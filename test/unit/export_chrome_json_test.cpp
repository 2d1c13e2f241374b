// The Chrome export's JSON text (tools/pilgrim-export/chrome_json.h):
// strings escaped so that any bytes a trace holds make valid JSON, times in
// microseconds with exactly three decimals.
#include <gtest/gtest.h>

#include <string>

#include "chrome_json.h"

using pilgrim::exporter::json_micros;
using pilgrim::exporter::json_string;
using pilgrim::exporter::JsonObject;

TEST(ChromeJson, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(json_string("MPI_Send"), "\"MPI_Send\"");
  EXPECT_EQ(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_string("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
  EXPECT_EQ(json_string(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(json_string(std::string("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(ChromeJson, KeepsUtf8AndEscapesOtherBytes) {
  EXPECT_EQ(json_string("\xc3\xa9t\xc3\xa9"), "\"\xc3\xa9t\xc3\xa9\""); // été
  EXPECT_EQ(json_string("\xe2\x82\xac"), "\"\xe2\x82\xac\"");           // €
  EXPECT_EQ(json_string("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");   // U+1F600
  EXPECT_EQ(json_string("\xff"), "\"\\u00ff\"");                        // never UTF-8
  EXPECT_EQ(json_string("\xff\x80\x80"), "\"\\u00ff\\u0080\\u0080\"");
  EXPECT_EQ(json_string("\xc3"), "\"\\u00c3\"");                       // cut short
  EXPECT_EQ(json_string("\xc0\xaf"), "\"\\u00c0\\u00af\"");            // overlong
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\""); // surrogate
}

TEST(ChromeJson, MicrosecondsWithThreeDecimals) {
  EXPECT_EQ(json_micros(0), "0.000");
  EXPECT_EQ(json_micros(1234567), "1234.567");
  EXPECT_EQ(json_micros(1000), "1.000");
  EXPECT_EQ(json_micros(-5), "-0.005");
  EXPECT_EQ(json_micros(-1234567), "-1234.567");
}

TEST(ChromeJson, ObjectFields) {
  JsonObject o;
  EXPECT_EQ(o.str(), "{}");
  o.text("name", "x\"y").integer("pid", 3).micros("ts", 1500).raw("args", "{}");
  EXPECT_EQ(o.str(), "{\"name\":\"x\\\"y\",\"pid\":3,\"ts\":1.500,\"args\":{}}");
}
