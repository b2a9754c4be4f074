#!/usr/bin/env python3
"""Writes a man page (roff) for a PetSpot binary from its own help.

Usage: scripts/man-page.py BINARY > BINARY.1

The text comes from ArgumentParser's `--experimental-dump-help` (every command, argument and
option with its help), so the page says what `--help` says and cannot drift from it.
"""
import json
import subprocess
import sys


def escape(text):
    text = (text or "").replace("\\", "\\e")
    lines = []
    for line in text.split("\n"):
        # A line starting with . or ' would be read as a request.
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def names(argument):
    shown = []
    for name in argument.get("names", []):
        shown.append(("--" if name["kind"] == "long" else "-") + name["name"])
    return ", ".join(shown)


def argument_entry(argument):
    if not argument.get("shouldDisplay", True):
        return ""
    value = argument.get("valueName")
    if argument["kind"] == "positional":
        head = f"\\fI{escape(value or 'value')}\\fR"
    elif argument["kind"] == "option":
        head = f"\\fB{escape(names(argument))}\\fR \\fI{escape(value or 'value')}\\fR"
    else:
        head = f"\\fB{escape(names(argument))}\\fR"
    body = escape(argument.get("abstract", ""))
    if argument.get("defaultValue") not in (None, ""):
        body += f" (default: {escape(argument['defaultValue'])})"
    if argument.get("discussion"):
        discussion = argument["discussion"]
        body += "\n" + escape(discussion if isinstance(discussion, str) else "")
    return f".TP\n{head}\n{body}\n"


def command_section(command, path, top):
    out = []
    title = " ".join(path)
    if not top:
        out.append(f'.SH "{escape(title.upper())}"\n')
        if command.get("abstract"):
            out.append(escape(command["abstract"]) + "\n")
    if command.get("discussion") and not top:
        out.append(".PP\n" + escape(command["discussion"]) + "\n")
    shown = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)
             and names(a) not in ("-h, --help", "--help", "--version")]
    if shown:
        out.append(".PP\n\\fBUsage:\\fR " + escape(title) + " [options]" + "\n")
        for argument in shown:
            out.append(argument_entry(argument))
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True):
            out.append(command_section(sub, path + [sub["commandName"]], False))
    return "".join(out)


def main():
    binary = sys.argv[1]
    dumped = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout
    root = json.loads(dumped)["command"]
    name = root["commandName"]
    page = [f'.TH "{name.upper()}" "1" "" "PetSpot" "User Commands"\n',
            ".SH NAME\n", f"{name} \\- {escape(root.get('abstract', ''))}\n",
            ".SH SYNOPSIS\n", f"\\fB{name}\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n"]
    if root.get("discussion"):
        page += [".SH DESCRIPTION\n", escape(root["discussion"]) + "\n"]
    page.append(command_section(root, [name], True))
    page += [".SH SEE ALSO\n", f"\\fB{name} help \\fIcommand\\fR, and docs/cli.md and docs/server.md in the sources.\n"]
    sys.stdout.write("".join(page))


if __name__ == "__main__":
    main()
