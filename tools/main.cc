// The bloomtable command-line tool: dump, verify, get, scan, build and stats
// for table files. See `bloomtable help` and the README.

#include "tools/cli.h"

int main(int argc, char** argv) {
  return bloomtable::tool::RunTool(argc, argv);
}
