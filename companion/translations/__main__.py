"""``python -m companion.translations extract|update|check|compile``: keep the message catalogues."""

from __future__ import annotations

import sys

from companion import translations


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command in ("extract", "update"):
        template = translations.extract()
        translations.write(template, translations.TEMPLATE)
        print(f"{translations.TEMPLATE}: {len(template)} messages")
        if command == "update":
            translations.update(template)
            print("merged into " + ", ".join(translations.translated_languages()))
        return 0
    if command == "check":
        template = translations.extract()
        found = [problem for code in translations.translated_languages()
                 for problem in translations.problems(template, code)]
        for problem in found:
            print(problem)
        print(f"{len(template)} messages; {len(found)} problems")
        return 1 if found else 0
    if command == "compile":
        for path in translations.compile_all():
            print(f"compiled {path}")
        return 0
    print("usage: python -m companion.translations extract|update|check|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
