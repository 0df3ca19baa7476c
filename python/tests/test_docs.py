"""Documentation as Python users read it: docstrings and stubs."""

import ast
import inspect
import pathlib

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
        assert name in declared, name
        obj = getattr(bloomtable, name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member in public_names(obj):
                assert member in declared[name], f"{name}.{member}"


def test_help_teaches_the_database_api():
    text = pydoc_text(bloomtable.Database)
    for word in ("open", "versions", "items", "reverse", "sequence", "close", "KeyError",
                 "max_open_files", "read_leftovers", "UnsupportedError"):
        assert word in text
