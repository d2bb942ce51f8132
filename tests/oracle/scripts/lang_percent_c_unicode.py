# %c and {:c} of code points past ASCII (they printed one truncated byte), widths, and the range
# error; chr() of the same.
print(chr(233), chr(0x1F600), "{:c}".format(0x20AC), "%c" % 0x3B1)
print("%c|%c|%5c|%-3c|" % (65, 0x10FFFF, 0x3B1, "z"))
for bad in (-1, 0x110000):
    try:
        print("%c" % bad)
    except OverflowError as e:
        print("OverflowError", e)
