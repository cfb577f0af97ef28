import { describe, expect, it } from "vitest"
import { splitTerms, terms } from "../../../server/src/index/tokenize"

describe("code tokenizer", () => {
  it("splits camelCase, PascalCase with acronyms, snake_case and digits, keeping the whole identifier too", () => {
    expect(splitTerms("parseDocument")).toEqual(["parse", "Document", "parseDocument"])
    expect(splitTerms("XMLHttpRequest")).toEqual(["XML", "Http", "Request", "XMLHttpRequest"])
    expect(splitTerms("parse_yaml_doc")).toEqual(["parse", "yaml", "doc", "parseyamldoc"])
    expect(splitTerms("utf8Decode")).toEqual(["utf", "8", "Decode", "utf8Decode"])
  })

  it("stems and lower-cases, so a question meets the identifiers it talks about", () => {
    expect(terms("Parses the documents")).toEqual(terms("parseDocument").slice(0, 2))
    expect(terms("retrying requests")).toEqual(terms("retryRequest").slice(0, 2))
  })

  it("drops English and code stop words, including stemmed forms", () => {
    expect(terms("Returns the value of this function")).toEqual([])
    expect(terms("const x = new Foo()")).toEqual(["foo"])
  })

  it("handles non-ASCII letters as word characters", () => {
    expect(terms("ÄpfelBaum")).toEqual(["äpfel", "baum", "äpfelbaum"])
  })
})
