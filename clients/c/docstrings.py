#!/usr/bin/env python3
"""Puts the interface XML's org.gtk.GDBus.DocString annotations into gdbus-codegen's C output.

gdbus-codegen (GLib 2.74) writes DocStrings only into its DocBook and reStructuredText
output; the gtk-doc comments of the generated C code say only "invokes the Measure() D-Bus
method". g-ir-scanner reads those comments, so without this the GIR (and everything made
from it: GJS and PyGObject docs, the VAPI) says nothing about what a call does.

Usage: docstrings.py INTERFACE.xml CODEGEN.c CODEGEN.h OUT.c OUT.h
  OUT.c: CODEGEN.c with each member's DocString after the first paragraph of its gtk-doc
         blocks (call, finish, sync, handle-, property, getter, signal, interface), and each
         argument's DocString as its parameter's description; includes OUT.h.
  OUT.h: CODEGEN.h with a comment holding the DocString above each member's declarations.
Names are taken from the generated code's own conventions (the C.Name annotations win).
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

GTK_DOC = "org.gtk.GDBus.DocString"
C_NAME = "org.gtk.GDBus.C.Name"


def annotation(element, name):
    for a in element.findall("annotation"):
        if a.get("name") == name:
            return a.get("value")
    return None


def snake(name):
    # gdbus-codegen's camel_case_to_uscore: a lower-case letter or digit before an upper-case
    # one starts a word (UIFont -> uifont, hence the XML's C.Name for it).
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def c_name(element):
    return annotation(element, C_NAME) or snake(element.get("name"))


def comment_lines(text, indent):
    """A DocString as the lines of a gtk-doc comment (paragraphs kept, '*/' impossible)."""
    text = text.replace("*/", "* /")
    return [f"{indent}*" + (f" {line}" if line.strip() else "") for line in text.split("\n")]


def main(xml_path, c_in, h_in, c_out, h_out):
    iface = ET.parse(xml_path).getroot().find("interface")
    prefix = "fit_" + c_name(iface).lower()  # fit_client
    type_name = "Fit" + c_name(iface)  # FitClient
    members = {}  # gtk-doc symbol -> (doc, {param: doc})
    optional = set()  # generated only for some types

    def add(symbol, doc, params):
        members[symbol] = (doc, params)

    add(f"{type_name}", annotation(iface, GTK_DOC), {})
    for m in iface.findall("method"):
        name = c_name(m)
        params = {}
        for a in m.findall("arg"):
            doc = annotation(a, GTK_DOC)
            if doc:
                params[("arg_" if a.get("direction", "in") == "in" else "out_") + a.get("name")] = doc
        doc = annotation(m, GTK_DOC)
        for suffix in ("", "_finish", "_sync"):
            add(f"{prefix}_call_{name}{suffix}", doc, params)
        add(f"{type_name}::handle-{name.replace('_', '-')}", doc, params)
        add(f"{prefix}_complete_{name}", doc, params)
    for p in iface.findall("property"):
        name = c_name(p)
        doc = annotation(p, GTK_DOC)
        add(f"{type_name}:{name.replace('_', '-')}", doc, {})
        for verb in ("get", "dup", "set"):
            add(f"{prefix}_{verb}_{name}", doc, {})
        optional.add(f"{prefix}_dup_{name}")  # only for strings, arrays and variants
    for s in iface.findall("signal"):
        name = c_name(s)
        params = {"arg_" + a.get("name"): annotation(a, GTK_DOC) for a in s.findall("arg") if annotation(a, GTK_DOC)}
        doc = annotation(s, GTK_DOC)
        add(f"{type_name}::{name.replace('_', '-')}", doc, params)
        add(f"{prefix}_emit_{name}", doc, params)

    source = open(c_in, encoding="utf-8").read()
    done = set()

    def rewrite(match):
        indent, body = match.group(1), match.group(2)
        lines = body.split("\n")
        # "/**\n * SYMBOL: (annotations)" — the symbol is the first line's text up to ':'.
        head = re.match(r"\s*\* ([A-Za-z_:\-]+?):(?:\s|$)", lines[1]) if len(lines) > 1 else None
        if not head or head.group(1) not in members:
            return match.group(0)
        symbol = head.group(1)
        doc, params = members[symbol]
        star = indent + " "
        out, i, inserted = [], 0, False
        # Parameters: "@NAME: (annotations): description" -> the argument's DocString.
        for i, line in enumerate(lines):
            p = re.match(r"(\s*\* @(\w+): )((?:\([^)]*\) ?)*:? ?)(.*)$", line)
            if p and p.group(2) in params:
                annotations = p.group(3) if p.group(3).strip() else ""
                line = f"{p.group(1)}{annotations}{params[p.group(2)]}"
            out.append(line)
        # The DocString as the second paragraph: after the first description paragraph.
        if doc:
            blanks = [k for k, line in enumerate(out) if line.strip() == "*"]
            if len(blanks) >= 1:
                # out[blanks[0]] separates the parameters from the description; the description's
                # first paragraph ends at the next blank line or the end of the comment.
                start = blanks[0] + 1
                end = next((k for k in blanks if k > start), len(out) - 1)
                out[end:end] = [f"{star}*"] + comment_lines(doc, star)
                inserted = True
        if inserted:
            done.add(symbol)
        return indent + "/**" + "\n".join(out)

    # Each gtk-doc block: "/**" up to its "*/", with the indentation of its "/**".
    source = re.sub(r"([ \t]*)/\*\*(.*?)(?=\*/)", rewrite, source, flags=re.S)
    missing = sorted(s for s, (doc, _) in members.items() if doc and s not in done and s not in optional)
    # Every member with a DocString must have found a block: a generator that names things
    # differently fails the build instead of silently losing the docs.
    if missing:
        sys.exit(f"docstrings.py: no gtk-doc block for {', '.join(missing)} in {c_in}")
    codegen_h = os.path.basename(h_in)
    source = source.replace(f'#include "{codegen_h}"', f'#include "{os.path.basename(h_out)}"')
    open(c_out, "w", encoding="utf-8").write(source)

    header = open(h_in, encoding="utf-8").read()
    first = {}
    for m in iface.findall("method"):
        first[f"{prefix}_call_{c_name(m)} ("] = (m.get("name") + "()", annotation(m, GTK_DOC))
    for p in iface.findall("property"):
        first[f"{prefix}_get_{c_name(p)} ("] = (p.get("name") + " property", annotation(p, GTK_DOC))
    lines, out = header.split("\n"), []
    for line in lines:
        for key, (what, doc) in first.items():
            if key in line and doc:
                out.append(f"/* {what}: " + doc.replace("*/", "* /").replace("\n", "\n * ") + " */")
        out.append(line)
    guard = re.sub(r"\W", "_", codegen_h).upper()
    new_guard = re.sub(r"\W", "_", os.path.basename(h_out)).upper()
    open(h_out, "w", encoding="utf-8").write("\n".join(out).replace(guard, new_guard))


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
