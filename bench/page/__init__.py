"""The sections of BENCHMARKS.md, one module each, written by bench/report.py
from the committed benchmark JSON. `common` holds what every section reads
(the JSON's rows, the peers' provenance, verdicts and formatting); no module
imports one that imports it back."""
