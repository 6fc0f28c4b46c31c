// The driver's rewrite of device-side launches for clang 19 (kernel-jit/driver/DeviceLaunches.h).
#include "../../kernel-jit/driver/DeviceLaunches.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using musa::driver::rewriteDeviceLaunches;
using musa::driver::rewriteLaunchAt;

namespace {
std::string rewrite(std::string text, const std::string &at, const std::string &args = "") {
  size_t offset = text.find(at);
  EXPECT_NE(offset, std::string::npos);
  EXPECT_TRUE(rewriteLaunchAt(text, offset, args)) << text;
  return text;
}
} // namespace

TEST(DeviceLaunches, LaunchBecomesTheHeadersDeviceLaunch) {
  EXPECT_EQ(rewrite("{ child<<<g, b>>>(p, 7); }", "child"),
            "{ ::__musa_sim_device_launch<&child>(g, b)(p, 7); }");
  EXPECT_EQ(rewrite("k <<< (n + 255) / 256, dim3(16, 16), 0, s >>> (a, f(b, c), \")\");", "k"),
            "::__musa_sim_device_launch<&k>( (n + 255) / 256, dim3(16, 16), 0, s )"
            "(a, f(b, c), \")\");");
  EXPECT_EQ(rewrite("k<<<1, 1>>>();", "k"), "::__musa_sim_device_launch<&k>(1, 1)();");
}

TEST(DeviceLaunches, QualifiedAndTemplateCallees) {
  // clang points at the name (a found kernel) or at the start of the callee (a template).
  EXPECT_EQ(rewrite("ns::inner::k<float, 16><<<1, 4>>>(out);", "k<"),
            "::__musa_sim_device_launch<&ns::inner::k<float, 16>>(1, 4)(out);");
  EXPECT_EQ(rewrite("ns::k<A<int>><<<1, 4>>>(out);", "ns"),
            "::__musa_sim_device_launch<&ns::k<A<int>>>(1, 4)(out);");
  EXPECT_EQ(rewrite("::k<<<1, 4>>>(out);", "k<"), "::__musa_sim_device_launch<&::k>(1, 4)(out);");
  // Deduced template arguments come from clang's name of the specialisation.
  EXPECT_EQ(rewrite("k<<<1, 4>>>(out);", "k", "<float>"),
            "::__musa_sim_device_launch<&k<float>>(1, 4)(out);");
}

TEST(DeviceLaunches, LinesStayWhereTheyWere) {
  std::string text = rewrite("a;\nk<<<1,\n     2>>>\n  (x,\n   y);\nb;", "k");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5) << text;
  EXPECT_EQ(text.substr(text.rfind('\n')), "\nb;");
}

TEST(DeviceLaunches, WhatIsNotALaunchIsLeftAlone) {
  std::string text = "LAUNCH(child);";
  EXPECT_FALSE(rewriteLaunchAt(text, text.find("child"), ""));
  text = "child(p);";
  EXPECT_FALSE(rewriteLaunchAt(text, 0, ""));
  text = "k<<<1, 1>>>(unclosed";
  EXPECT_FALSE(rewriteLaunchAt(text, 0, ""));
  EXPECT_EQ(text, "k<<<1, 1>>>(unclosed");
}

TEST(DeviceLaunches, OverlayPutsRewrittenCopiesInPlaceOfTheFiles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("musa-dl-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path source = dir / "p.mu";
  std::ofstream(source) << "__global__ void parent(int *p) {\n  child<<<1, 1>>>(p);\n"
                           "  t<<<1, 2>>>(p);\n}\n";
  std::string diagnostics =
      source.string() + ":2:3: error: reference to __global__ function 'child' in __global__ "
                        "function\n" +
      source.string() + ":3:3: error: no matching function for call to 't'\n" +
      "   3 |   t<<<1, 2>>>(p);\n" + source.string() +
      ":1:2: note: candidate function not viable: call to __global__ function from __global__ "
      "function\n" +
      source.string() + ":9:9: error: reference to __global__ function 'gone' in __global__ "
                        "function\n";
  std::string overlay = rewriteDeviceLaunches(diagnostics, (dir / "stem").string());
  ASSERT_FALSE(overlay.empty());
  std::stringstream yaml, copy;
  yaml << std::ifstream(overlay).rdbuf();
  EXPECT_NE(yaml.str().find("\"external-contents\": \"" + (dir / "stem.dp0.mu").string()),
            std::string::npos)
      << yaml.str();
  copy << std::ifstream(dir / "stem.dp0.mu").rdbuf();
  EXPECT_EQ(copy.str(), "__global__ void parent(int *p) {\n"
                        "  ::__musa_sim_device_launch<&child>(1, 1)(p);\n"
                        "  ::__musa_sim_device_launch<&t>(1, 2)(p);\n}\n");
  // Nothing to rewrite: no overlay.
  EXPECT_EQ(rewriteDeviceLaunches("x.mu:1:1: error: something else\n", (dir / "s2").string()),
            "");
  fs::remove_all(dir);
}
