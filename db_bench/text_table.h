// TextTable aligns rows of cells for db_bench's and filter_bench's printed
// tables: the first `text_columns` columns to the left, the others (numbers)
// to the right; an empty row is a blank separator line. Not thread-safe.

#ifndef BLOOMTABLE_DB_BENCH_TEXT_TABLE_H_
#define BLOOMTABLE_DB_BENCH_TEXT_TABLE_H_

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace bloomtable {
namespace db_bench {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header, size_t text_columns)
      : text_columns_(text_columns) {
    rows_.push_back(std::move(header));
  }
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void AddSeparator() { rows_.emplace_back(); }

  std::string Render() const {
    std::vector<size_t> widths;
    for (const auto& row : rows_) {
      if (widths.size() < row.size()) widths.resize(row.size(), 0);
      for (size_t i = 0; i < row.size(); ++i) {
        widths[i] = std::max(widths[i], row[i].size());
      }
    }
    std::string out;
    for (const auto& row : rows_) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) {
        const std::string padding(widths[i] - row[i].size(), ' ');
        if (i > 0) line += "  ";
        line += i < text_columns_ ? row[i] + padding : padding + row[i];
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    return out;
  }

 private:
  const size_t text_columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_TEXT_TABLE_H_
