/** Parsing of the model's "x,y" coordinates and "WxH" sizes (Roo's browser_action formats). */

export interface Point {
  x: number
  y: number
}

export interface Size {
  width: number
  height: number
}

/** Limits that keep a screenshot a sensible size for the model (and Chromium's window limits). */
export const MIN_SIDE = 100
export const MAX_SIDE = 4096

/** "450,300" (whitespace allowed, integers or decimals) → {x, y}; undefined when malformed. */
export function parseCoordinate(text: string): Point | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*$/.exec(text)
  if (!match) return undefined
  return { x: Number(match[1]), y: Number(match[2]) }
}

/** "900x600" (or "900,600") → {width, height} within MIN_SIDE..MAX_SIDE; undefined otherwise. */
export function parseSize(text: string): Size | undefined {
  const match = /^\s*(\d+)\s*[x,×]\s*(\d+)\s*$/i.exec(text)
  if (!match) return undefined
  const size = { width: Number(match[1]), height: Number(match[2]) }
  const fits = (n: number) => n >= MIN_SIDE && n <= MAX_SIDE
  return fits(size.width) && fits(size.height) ? size : undefined
}

export function isInside(point: Point, size: Size): boolean {
  return point.x < size.width && point.y < size.height
}
