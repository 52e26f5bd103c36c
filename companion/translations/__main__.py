"""``python -m companion.translations extract|update|check|compile``: keep the message catalogues of the
companion and of the café board."""

from __future__ import annotations

import sys

from companion import translations


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command not in ("extract", "update", "check", "compile"):
        print("usage: python -m companion.translations extract|update|check|compile", file=sys.stderr)
        return 2
    found: list[str] = []
    for package in translations.PACKAGES:
        if command == "compile":
            for path in translations.compile_all(package):
                print(f"compiled {path}")
            continue
        template = translations.extract(package)
        if command == "check":
            problems = [p for code in translations.translated_languages()
                        for p in translations.problems(template, code, package)]
            found += [f"{package.name}: {problem}" for problem in problems]
            print(f"{package.name}: {len(template)} messages; {len(problems)} problems")
            continue
        translations.write(template, package.template)
        print(f"{package.template}: {len(template)} messages")
        if command == "update":
            translations.update(template, package)
            print(f"merged into {', '.join(translations.translated_languages())}")
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
