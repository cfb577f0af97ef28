import { describe, expect, it } from "vitest"
import { OutputWindow, stripAnsi } from "../../../server/src/terminal/output-window"

const note = (lines: number, bytes: number) => `[${lines} lines / ${bytes} bytes omitted]`
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join("")

describe("OutputWindow", () => {
  it("keeps the whole output when it fits", () => {
    const w = new OutputWindow(10, 1000)
    w.push(Buffer.from(lines(1, 10)))
    expect(w.truncated).toBe(false)
    expect(w.render(note)).toBe(lines(1, 10))
  })

  it("keeps the first 20% and the last 80% of the line budget with a note between", () => {
    const w = new OutputWindow(10, 100_000)
    w.push(Buffer.from(lines(1, 100)))
    expect(w.truncated).toBe(true)
    expect(w.render(note)).toBe(
      `${lines(1, 2)}\n[90 lines / ${w.totalBytes - Buffer.byteLength(lines(1, 2) + lines(93, 100))} bytes omitted]\n\n${lines(93, 100)}`,
    )
  })

  it("cuts by bytes when a few lines are huge", () => {
    const w = new OutputWindow(500, 1000)
    w.push(Buffer.from(`${"a".repeat(5000)}\n${"b".repeat(5000)}\n`))
    const text = w.render(note)
    expect(Buffer.byteLength(text)).toBeLessThan(1100)
    expect(text.startsWith("a".repeat(200))).toBe(true)
    expect(text.endsWith(`${"b".repeat(700)}\n`)).toBe(true)
  })

  it("stays bounded in memory however much is pushed", () => {
    const w = new OutputWindow(500, 50 * 1024)
    const chunk = Buffer.from(lines(1, 1000))
    for (let i = 0; i < 2000; i++) w.push(chunk) // ~20 MB
    expect(w.totalLines).toBe(2_000_000)
    expect(w.render(note).length).toBeLessThan(60 * 1024)
  })

  it("decodes UTF-8 split across chunks", () => {
    const w = new OutputWindow(10, 1000)
    const bytes = Buffer.from("héllo\n")
    expect(w.push(bytes.subarray(0, 2)) + w.push(bytes.subarray(2))).toBe("héllo\n")
  })

  it("strips colour escapes", () => {
    expect(stripAnsi("\u001b[31mred\u001b[0m plain")).toBe("red plain")
  })
})
