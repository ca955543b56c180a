// libFuzzer target: the CSV reader of table signals (a lumped bench input read from a file), with the
// default columns (first two) or named ones, chosen by the input's length.
#include "table_fuzzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string head =
      "[law]\ntype = \"lugre\"\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n[bench]\ndrive = \"velocity\"\n"
      "[time]\nt_end_s = 0.1\n[bench.input]\ntype = \"table\"\nfile = \"table.csv\"\n";
  static const std::string default_columns = head;
  static const std::string named_columns = head + "time_column = \"t_s\"\nvalue_column = \"v_mps\"\n";
  bristle::fuzz::check_with_table(data, size, size % 2 == 0 ? default_columns : named_columns);
  return 0;
}
