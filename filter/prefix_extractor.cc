// The three built-in prefix extractors. Each keeps its name, built once.

#include "bloomtable/prefix_extractor.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace bloomtable {

PrefixExtractor::~PrefixExtractor() = default;

bool PrefixExtractor::SameResultWhenAppended(std::string_view) const {
  return false;
}

namespace {

class FixedPrefixExtractor final : public PrefixExtractor {
 public:
  explicit FixedPrefixExtractor(size_t length)
      : length_(length),
        name_(absl::StrCat("bloomtable.FixedPrefix.", length)) {}

  std::string_view Name() const override { return name_; }
  bool InDomain(std::string_view key) const override {
    return key.size() >= length_;
  }
  std::string_view Transform(std::string_view key) const override {
    return key.substr(0, length_);
  }
  // Every key starting with a prefix of `length_` bytes has that prefix.
  bool SameResultWhenAppended(std::string_view prefix) const override {
    return prefix.size() == length_;
  }

 private:
  const size_t length_;
  const std::string name_;
};

class CappedPrefixExtractor final : public PrefixExtractor {
 public:
  explicit CappedPrefixExtractor(size_t length)
      : length_(length),
        name_(absl::StrCat("bloomtable.CappedPrefix.", length)) {}

  std::string_view Name() const override { return name_; }
  bool InDomain(std::string_view) const override { return true; }
  std::string_view Transform(std::string_view key) const override {
    return key.substr(0, std::min(key.size(), length_));
  }
  // A shorter prefix is a whole short key: appending bytes changes it.
  bool SameResultWhenAppended(std::string_view prefix) const override {
    return prefix.size() == length_;
  }

 private:
  const size_t length_;
  const std::string name_;
};

class DelimitedPrefixExtractor final : public PrefixExtractor {
 public:
  DelimitedPrefixExtractor(char delimiter, size_t count)
      : delimiter_(delimiter),
        count_(std::max<size_t>(count, 1)),
        name_(absl::StrFormat("bloomtable.DelimitedPrefix.%02x.%u",
                              static_cast<unsigned char>(delimiter), count_)) {}

  std::string_view Name() const override { return name_; }
  bool InDomain(std::string_view key) const override {
    return PrefixLength(key) != std::string_view::npos;
  }
  std::string_view Transform(std::string_view key) const override {
    const size_t length = PrefixLength(key);
    return length == std::string_view::npos ? key : key.substr(0, length);
  }
  // A prefix ends at the count-th delimiter; bytes appended after it leave
  // the first count delimiters where they are.
  bool SameResultWhenAppended(std::string_view prefix) const override {
    return PrefixLength(prefix) == prefix.size();
  }

 private:
  // The length of the prefix (up to and including the count-th delimiter),
  // or npos if `key` has fewer delimiters.
  size_t PrefixLength(std::string_view key) const {
    size_t position = 0;
    for (size_t seen = 0; seen < count_; ++seen) {
      const size_t found = key.find(delimiter_, position);
      if (found == std::string_view::npos) return std::string_view::npos;
      position = found + 1;
    }
    return position;
  }

  const char delimiter_;
  const size_t count_;
  const std::string name_;
};

}  // namespace

std::shared_ptr<const PrefixExtractor> NewFixedPrefixExtractor(size_t length) {
  return std::make_shared<FixedPrefixExtractor>(length);
}

std::shared_ptr<const PrefixExtractor> NewCappedPrefixExtractor(size_t length) {
  return std::make_shared<CappedPrefixExtractor>(length);
}

std::shared_ptr<const PrefixExtractor> NewDelimitedPrefixExtractor(
    char delimiter, size_t count) {
  return std::make_shared<DelimitedPrefixExtractor>(delimiter, count);
}

std::shared_ptr<const PrefixExtractor> NewPrefixExtractorFromName(
    std::string_view name) {
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(name.data(), name.size()), '.');
  if (parts.size() < 3 || parts[0] != "bloomtable") return nullptr;
  std::shared_ptr<const PrefixExtractor> extractor;
  uint64_t number = 0;
  if (parts.size() == 3 && absl::SimpleAtoi(parts[2], &number)) {
    if (parts[1] == "FixedPrefix") {
      extractor = NewFixedPrefixExtractor(number);
    } else if (parts[1] == "CappedPrefix") {
      extractor = NewCappedPrefixExtractor(number);
    }
  } else if (parts.size() == 4 && parts[1] == "DelimitedPrefix" &&
             absl::SimpleAtoi(parts[3], &number)) {
    uint32_t delimiter = 0;
    if (parts[2].size() == 2 && absl::SimpleHexAtoi(parts[2], &delimiter)) {
      extractor =
          NewDelimitedPrefixExtractor(static_cast<char>(delimiter), number);
    }
  }
  // Only the canonical spelling names an extractor ("08" or "+8" do not).
  if (extractor == nullptr || extractor->Name() != name) return nullptr;
  return extractor;
}

}  // namespace bloomtable
