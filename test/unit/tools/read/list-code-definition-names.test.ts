import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempWorkspace, type TempWorkspace } from "../../../support/temp-workspace"
import { makeToolContext } from "../../../support/tool-context"
import { listCodeDefinitionNames } from "../../../../server/src/tools/list-code-definition-names"
import { callTool, textOf } from "./run-tool"

const files: Record<string, string> = {
  "a.ts": [
    "export interface Shape { area(): number }",
    "type Id = string",
    "export class Circle implements Shape {",
    "  area(): number {",
    "    return 3",
    "  }",
    "}",
    "export const make = (r: number) => new Circle()",
    "const plain = 1",
  ].join("\n"),
  "b.py": ["class A:", "    def m(self):", "        pass", "", "def f():", "    return 1"].join("\n"),
  "c.rs": ["struct S { x: i32 }", "impl S {", "    fn new() -> Self {", "        S { x: 1 }", "    }", "}"].join("\n"),
  "d.go": ["package main", "", "type Point struct{ X int }", "", "func (p Point) Len() int {", "\treturn 0", "}"].join("\n"),
  "E.java": ["public class E {", "  void run() {", "  }", "}"].join("\n"),
  "g.cpp": ["struct Fwd;", "namespace ns {", "int twice(int a) {", "  return 2 * a;", "}", "}"].join("\n"),
  "h.rb": ["module M", "  class R", "    def m", "    end", "  end", "end"].join("\n"),
  "notes.txt": "no code",
  "secret.ts": "function hidden() {}",
  ".rooignore": "secret.ts\n",
}

let ws: TempWorkspace
beforeAll(async () => {
  ws = await tempWorkspace(files)
})
afterAll(() => ws.cleanup())

const defs = async (path: string) => textOf(await callTool(listCodeDefinitionNames, { path }, makeToolContext(ws.root)))

describe("list_code_definition_names", () => {
  it("lists TypeScript interfaces, types, classes, methods and arrow functions with line ranges", async () => {
    expect(await defs("a.ts")).toBe(
      [
        "# a.ts",
        "1--1 | export interface Shape { area(): number }",
        "2--2 | type Id = string",
        "3--7 | export class Circle implements Shape {",
        "4--6 |   area(): number {",
        "8--8 | export const make = (r: number) => new Circle()",
      ].join("\n"),
    )
  })

  it("lists Python classes and nested functions", async () => {
    expect(await defs("b.py")).toBe("# b.py\n1--3 | class A:\n2--3 |     def m(self):\n5--6 | def f():")
  })

  it("lists Rust structs, impls and functions", async () => {
    expect(await defs("c.rs")).toBe("# c.rs\n1--1 | struct S { x: i32 }\n2--6 | impl S {\n3--5 |     fn new() -> Self {")
  })

  it("lists Go types and methods, Java classes and methods, C++ namespaces and functions, Ruby modules", async () => {
    expect(await defs("d.go")).toBe("# d.go\n3--3 | type Point struct{ X int }\n5--7 | func (p Point) Len() int {")
    expect(await defs("E.java")).toBe("# E.java\n1--4 | public class E {\n2--3 |   void run() {")
    expect(await defs("g.cpp")).toBe("# g.cpp\n2--6 | namespace ns {\n3--5 | int twice(int a) {")
    expect(await defs("h.rb")).toBe("# h.rb\n1--6 | module M\n2--5 |   class R\n3--4 |     def m")
  })

  it("lists every supported file of a folder, skipping .rooignore'd ones and other languages", async () => {
    const text = await defs(".")
    for (const name of ["a.ts", "b.py", "c.rs", "d.go", "E.java", "g.cpp", "h.rb"]) expect(text).toContain(`# ${name}`)
    expect(text).not.toContain("secret")
    expect(text).not.toContain("notes")
  })

  it("gives a clear message for a language without a grammar", async () => {
    const r = await callTool(listCodeDefinitionNames, { path: "notes.txt" }, makeToolContext(ws.root))
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/^list_code_definition_names has no grammar for notes\.txt\. Supported: \.ts, .*Use read_file/)
  })

  it("refuses a .rooignore'd file", async () => {
    expect(JSON.parse(await defs("secret.ts")).message).toBe("Access blocked by .rooignore")
  })

  it("reads the open buffer rather than the disk", async () => {
    const ctx = makeToolContext(ws.root)
    ctx.editor.open(ws.path("b.py"), "def only_in_buffer():\n    pass\n")
    expect(textOf(await callTool(listCodeDefinitionNames, { path: "b.py" }, ctx))).toBe("# b.py\n1--2 | def only_in_buffer():")
  })
})
