#!/usr/bin/env python3
"""cardscan's man page, generated from its argument parser.

Reads the JSON that `cardscan --experimental-dump-help` prints (swift-argument-parser's
ToolInfo: every command, option, flag and argument with its help) on stdin and writes a
man(7) page on stdout: one section per subcommand, so `man cardscan` documents what
`cardscan SUBCOMMAND --help` says, from the same source.

    .build/release/cardscan --experimental-dump-help | python3 scripts/man-page.py > cardscan.1
"""
import json
import sys


def roff(text):
    """Text as roff: backslashes and leading dots or quotes escaped."""
    text = (text or "").replace("\\", "\\e")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line for line in text.split("\n"))


def names(arg):
    out = []
    for n in arg.get("names", []):
        dashes = "-" if n["kind"] == "short" else "--"
        if n["kind"] == "longWithSingleDash":
            dashes = "-"
        out.append("\\fB" + dashes + roff(n["name"]) + "\\fR")
    return ", ".join(out)


def argument(arg):
    if arg.get("shouldDisplay") is False:
        return ""
    value = arg.get("valueName", "")
    if arg["kind"] == "positional":
        head = "\\fI" + roff(value) + "\\fR"
    else:
        head = names(arg) + (" \\fI" + roff(value) + "\\fR" if arg["kind"] == "option" else "")
    text = roff(arg.get("abstract", ""))
    if arg.get("discussion"):
        text += " " + roff(arg["discussion"] if isinstance(arg["discussion"], str) else "")
    if arg.get("defaultValue"):
        text += " (default: " + roff(arg["defaultValue"]) + ")"
    return ".TP\n" + head + "\n" + text + "\n"


def command(cmd, path, top):
    out = []
    title = " ".join(path)
    if top:
        out.append(".SH DESCRIPTION\n" + roff(cmd.get("abstract", "")) + "\n")
        if cmd.get("discussion"):
            out.append(".PP\n" + roff(cmd["discussion"]) + "\n")
    else:
        out.append(".SS " + roff(title) + "\n" + roff(cmd.get("abstract", "")) + "\n")
        if cmd.get("discussion"):
            out.append(".PP\n" + roff(cmd["discussion"]) + "\n")
    args = [argument(a) for a in cmd.get("arguments", [])]
    args = [a for a in args if a]
    if args:
        out.append((".SH OPTIONS\n" if top else ".PP\nOptions:\n") + "".join(args))
    subs = cmd.get("subcommands", [])
    if subs and top:
        out.append(".SH COMMANDS\n")
    for sub in subs:
        out.append(command(sub, path + [sub["commandName"]], False))
    return "".join(out)


def main():
    info = json.load(sys.stdin)
    root = info["command"]
    name = root["commandName"]
    page = [".TH " + name.upper() + " 1\n", ".SH NAME\n" + name + " \\- " + roff(root.get("abstract", "")) + "\n",
            ".SH SYNOPSIS\n\\fB" + name + "\\fR [\\fISUBCOMMAND\\fR] [\\fIOPTIONS\\fR]\n", command(root, [name], True)]
    sys.stdout.write("".join(page))


if __name__ == "__main__":
    main()
