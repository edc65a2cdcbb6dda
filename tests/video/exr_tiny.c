/* exr_tiny.c: writes a small OpenEXR file without OpenEXR, as the independent reference of
   exrread (tests/video/exr_tiny.q reads it back). Single part, scan lines, no compression,
   FLOAT channels B, G, R (stored in alphabetical order, as the format requires), and a data
   window that does not start at 0, 0. The value of channel c (0 R, 1 G, 2 B) at row y,
   column x of the window is (x - 2 * y + 3 * c) / 4 + (c == 2 ? 100 : 0): all exact in half.
   Usage: exr_tiny FILE */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { X0 = 3, Y0 = 2, W = 7, H = 5 };

static FILE *out;

static void u8(unsigned v) { fputc((int)(v & 255), out); }
static void i32(int32_t v) { for (int k = 0; k < 4; k++) u8((uint32_t)v >> (8 * k)); }
static void u64(uint64_t v) { for (int k = 0; k < 8; k++) u8((unsigned)(v >> (8 * k))); }
static void f32(float f) { uint32_t u; memcpy(&u, &f, 4); i32((int32_t)u); }
static void str(const char *s) { fwrite(s, 1, strlen(s) + 1, out); }
static void attr(const char *name, const char *type, int32_t size) { str(name); str(type); i32(size); }

static float value(int c, int x, int y) { return (float)(x - 2 * y + 3 * c) / 4 + (c == 2 ? 100 : 0); }

int main(int argc, char **argv) {
  if (argc != 2 || !(out = fopen(argv[1], "wb"))) return 2;
  i32(20000630);   /* magic 76 2f 31 01 */
  i32(2);          /* version 2, single-part scan lines */
  attr("channels", "chlist", 3 * 18 + 1);
  for (const char *ch = "BGR"; *ch; ch++) {
    char name[2] = {*ch, 0};
    str(name);
    i32(2);        /* FLOAT */
    u8(0), u8(0), u8(0), u8(0);   /* pLinear, reserved */
    i32(1), i32(1);               /* x and y sampling */
  }
  u8(0);
  attr("compression", "compression", 1), u8(0);
  attr("dataWindow", "box2i", 16), i32(X0), i32(Y0), i32(X0 + W - 1), i32(Y0 + H - 1);
  attr("displayWindow", "box2i", 16), i32(0), i32(0), i32(X0 + W - 1), i32(Y0 + H - 1);
  attr("lineOrder", "lineOrder", 1), u8(0);
  attr("pixelAspectRatio", "float", 4), f32(1);
  attr("screenWindowCenter", "v2f", 8), f32(0), f32(0);
  attr("screenWindowWidth", "float", 4), f32(1);
  u8(0);
  long table = ftell(out), line = 8 + 3 * 4 * W;
  for (int y = 0; y < H; y++) u64((uint64_t)(table + 8 * H + y * line));
  for (int y = 0; y < H; y++) {
    i32(Y0 + y);
    i32(3 * 4 * W);
    for (int c = 2; c >= 0; c--)   /* B, G, R */
      for (int x = 0; x < W; x++) f32(value(c, x, y));
  }
  return fclose(out) == 0 ? 0 : 1;
}
