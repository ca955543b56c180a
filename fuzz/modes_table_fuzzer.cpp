// libFuzzer target: the CSV reader of modal data (structure.type = "generic", structure.file), checked
// through a memory-kernel scenario.
#include "table_fuzzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string scenario =
      "kind = \"structure_kernel\"\n[structure]\ntype = \"generic\"\nfile = \"table.csv\"\n"
      "[kernel]\nquantity = \"displacement\"\ntau_end_s = 1.0\npoints = 50\n";
  bristle::fuzz::check_with_table(data, size, scenario);
  return 0;
}
