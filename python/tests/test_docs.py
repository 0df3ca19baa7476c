"""Documentation as Python users read it: docstrings and stubs."""

import ast
import inspect
import pathlib
import re

import plyvel

import bloomtable

STUBS = pathlib.Path(__file__).resolve().parents[1] / "bloomtable" / "_bloomtable.pyi"


def public_names(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def test_every_public_class_and_method_has_a_docstring():
    assert bloomtable.__doc__
    for name in bloomtable.__all__:
        obj = getattr(bloomtable, name)
        if name == "__version__":
            continue
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member in public_names(obj):
                assert inspect.getdoc(getattr(obj, member)), f"{name}.{member}"


def test_help_teaches_the_table_api():
    text = pydoc_text(bloomtable.Table)
    for word in ("open", "multi_get", "items", "reverse", "prefix", "close", "KeyError",
                 "mmap", "internal_keys"):
        assert word in text


def pydoc_text(obj):
    import pydoc
    return pydoc.render_doc(obj, renderer=pydoc.plaintext)


def test_stubs_declare_every_public_name_and_member():
    tree = ast.parse(STUBS.read_text())
    declared = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            declared[node.name] = {n.name for n in node.body
                                   if isinstance(n, (ast.FunctionDef, ast.AnnAssign))} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            declared[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            declared[node.target.id] = set()
    for name in bloomtable.__all__:
        obj = getattr(bloomtable, name)
        if not getattr(obj, "__module__", "bloomtable._bloomtable").startswith(
                "bloomtable._bloomtable"):
            continue  # a Python module of the package: its source is typed
        assert name in declared, name
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member in public_names(obj):
                assert member in declared[name], f"{name}.{member}"


def test_help_teaches_the_database_api():
    text = pydoc_text(bloomtable.Database)
    for word in ("open", "versions", "items", "reverse", "sequence", "close", "KeyError",
                 "max_open_files", "read_leftovers", "UnsupportedError", "iterator",
                 "raw_iterator", "prefixed_db", "partitions", "__arrow_c_stream__"):
        assert word in text


README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def readme_python_examples():
    """The ```python blocks of the README's Python section, in order."""
    text = README.read_text()
    section = text[text.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_python_section_starts_with_pip_install():
    text = README.read_text()
    section = text[text.index("\n## Python\n"):]
    first_block = re.search(r"```(\w+)\n(.*?)```", section, flags=re.S)
    assert first_block.group(1) == "sh" and "pip install" in first_block.group(2)
    for consumer in ("pandas", "Polars", "DuckDB", "Dask"):
        assert consumer in section, consumer


def test_every_readme_python_example_runs(tmp_path, monkeypatch):
    """Runs the README's Python examples in order, in one namespace, in a
    directory holding what they name: app/leveldb, a LevelDB database that
    plyvel writes."""
    examples = readme_python_examples()
    assert len(examples) >= 6
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app").mkdir()
    db = plyvel.DB("app/leveldb", create_if_missing=True)
    for i in range(200):
        db.put(b"user:%d" % i, b"name %d" % i)
        db.put(b"item:%d" % i, b"price %d" % i)
    db.delete(b"user:7")
    db.close()
    namespace = {}
    for example in examples:
        code = compile(example, "README.md", "exec")
        exec(code, namespace)  # noqa: S102  (the README's own examples)
