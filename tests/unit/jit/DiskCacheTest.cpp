//===- DiskCacheTest.cpp - The JIT's disk cache ---------------------------===//
//
// Entries round-trip; a torn, edited or foreign entry is a miss; many
// processes storing and loading one key at once never read a mixed entry.
//
//===----------------------------------------------------------------------===//
#include "JitCache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

/// A fresh directory under the test's temporary directory.
std::string freshDir(const std::string &Name) {
  std::string Dir = testing::TempDir() + "/tilec-cache-" + Name + "-" +
                    std::to_string(::getpid());
  std::filesystem::remove_all(Dir);
  return Dir;
}

TEST(DiskCache, StoresAndLoads) {
  tile::DiskCache Cache(freshDir("roundtrip"));
  EXPECT_FALSE(Cache.load("k").has_value());
  std::string Error;
  std::string Binary("a\0b\nend 12\n", 11);
  ASSERT_TRUE(Cache.store("k", {"ptx text", Binary, ""}, Error)) << Error;
  auto Entry = Cache.load("k");
  ASSERT_TRUE(Entry.has_value());
  EXPECT_EQ(*Entry, (std::vector<std::string>{"ptx text", Binary, ""}));
  EXPECT_FALSE(Cache.load("other key").has_value());
}

TEST(DiskCache, DamagedEntriesAreMisses) {
  tile::DiskCache Cache(freshDir("damaged"));
  std::string Error;
  ASSERT_TRUE(Cache.store("key", {"payload one", "payload two"}, Error)) << Error;
  std::string Path = Cache.pathFor("key");
  std::string Whole;
  {
    std::ifstream In(Path, std::ios::binary);
    Whole.assign(std::istreambuf_iterator<char>(In), {});
  }
  auto write = [&](const std::string &Text) {
    std::ofstream(Path, std::ios::binary | std::ios::trunc) << Text;
  };
  for (std::size_t Cut : {std::size_t(0), std::size_t(5), Whole.size() / 2, Whole.size() - 1}) {
    write(Whole.substr(0, Cut));
    EXPECT_FALSE(Cache.load("key").has_value()) << "torn at " << Cut;
  }
  std::string Edited = Whole;
  Edited[Edited.find("one")] = 'X';
  write(Edited);
  EXPECT_FALSE(Cache.load("key").has_value()) << "edited payload";
  write(Whole);
  EXPECT_TRUE(Cache.load("key").has_value());
  // Rewriting a damaged entry makes it whole again.
  write("garbage");
  ASSERT_TRUE(Cache.store("key", {"payload one", "payload two"}, Error)) << Error;
  EXPECT_TRUE(Cache.load("key").has_value());
}

TEST(DiskCache, ConcurrentProcessesNeverReadAMixedEntry) {
  std::string Dir = freshDir("concurrent");
  constexpr int Processes = 16, Rounds = 200;
  std::vector<pid_t> Children;
  for (int P = 0; P < Processes; ++P) {
    pid_t Pid = ::fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      tile::DiskCache Cache(Dir);
      // Each process writes its own, large, payloads under one key and reads
      // back whatever is there: always one process's complete pair.
      std::string Mine(100000 + P, static_cast<char>('a' + P));
      int Bad = 0;
      for (int R = 0; R < Rounds; ++R) {
        std::string Error;
        if (!Cache.store("shared", {Mine, Mine + "!"}, Error))
          Bad |= 1;
        if (auto Entry = Cache.load("shared")) {
          const std::string &A = (*Entry)[0];
          if (Entry->size() != 2 || (*Entry)[1] != A + "!" || A.empty() ||
              A.find_first_not_of(A[0]) != std::string::npos ||
              A.size() != 100000 + static_cast<std::size_t>(A[0] - 'a'))
            Bad |= 2;
        }
      }
      ::_exit(Bad);
    }
    Children.push_back(Pid);
  }
  for (pid_t Pid : Children) {
    int Status = 0;
    ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
        << "a process saw a failed store (1) or a mixed entry (2): "
        << WEXITSTATUS(Status);
  }
  // No temporary file is left behind.
  for (const auto &Entry : std::filesystem::directory_iterator(Dir))
    EXPECT_EQ(Entry.path().extension(), ".entry") << Entry.path();
}

} // namespace
