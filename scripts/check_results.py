"""The pass / fail count of a script check (scripts/test.sh reads its closing
`N passed, M failed` line): one `ok` / `FAIL` line per check."""


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}")
