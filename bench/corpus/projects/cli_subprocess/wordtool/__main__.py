import argparse
import sys

from wordtool.core import count_lines, count_words, longest_word


def main(argv=None):
    parser = argparse.ArgumentParser(prog="wordtool")
    parser.add_argument("what", choices=["words", "lines", "longest"])
    parser.add_argument("file", nargs="?", help="read this file, not stdin")
    args = parser.parse_args(argv)
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    if args.what == "words":
        print(count_words(text))
    elif args.what == "lines":
        print(count_lines(text))
    else:
        print(longest_word(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
