# re: greedy, lazy and possessive repeats, {m,n} forms, repeats of groups (the last iteration's
# capture, empty iterations), atomic groups, and long subjects (no deep recursion).
import re

s = "<a><bb><ccc>"
for p in [r"<.*>", r"<.*?>", r"<.+?>", r"<\w{2}>", r"<\w{2,}>", r"<\w{,2}>", r"<\w{1,2}?>", r"a{0}<",
          r"<\w*+>", r"<.*+>", r"<\w?>", r"<\w??>", r"(?:<\w+>){2}", r"(?:<\w+>){2,}?", r"\w{2}+",
          r"c{1,2}+c", r"(?>.*)>", r"(?>.*?)b", r"<(?>a|ab)>", r"x{,}", r"a{2,3}", r"{", r"a{x}", r"a{1,"]:
    print(p, re.findall(p, s), re.search(p, s))
print(re.match(r"(a|b)*", "abba").groups(), re.match(r"(a|b)*?b", "abba").group(1))
print(re.match(r"(a)*", "aaa").span(1), re.match(r"(\w)+", "abc").group(1), re.match(r"(a|)*", "aab").span(1))
print(re.findall(r"(a*)*", "aab"), re.findall(r"(a*)+", "aab"), re.findall(r"(a|b*)*c", "abbac"))
print(re.match(r"(?:a*)*b", "aab"), re.match(r"(a?)+?b", "aab").groups())
print(re.match(r"(?:(a)|b)*", "ab").groups(), re.match(r"(?:(a)|(b))*", "ab").groups())
print(re.match(r"((a)|b)+", "ab").groups(), re.match(r"(a){2}(b){0,1}", "aab").groups())
print(re.match(r"(?:(\d)x)+", "1x2x3y").groups(), re.fullmatch(r"(ab|a)(bc|c)?", "abc").groups())
print(re.match(r"^(\w+?)(\d*)$", "abc123").groups(), re.match(r"(.*?)-(.*)", "a-b-c").groups())
print(re.match(r"(?:x?)*y", "xxy"), re.match(r"(?:()|a)*", "aa").span(), re.match(r"(?:a|())*", "aa").groups())

long_a = "a" * 10000
print(re.match(r"a*", long_a).end(), re.match(r"(?:a)*", long_a).end(), re.match(r"(a)*", long_a).span(1))
print(re.match(r"(a|b)*", long_a).end(), re.match(r"(?:aa)*", long_a).end(), re.match(r".*b", long_a))
print(re.match(r"a*?$", long_a).end(), re.search(r"a{3}b|a$", long_a).span(), len(re.findall(r"a{7}", long_a)))
print(re.fullmatch(r"(?:a|aa)*", long_a) is not None, re.match(r"(?:a(?=a))*", long_a).end())
print(len(re.sub(r"a", "bb", long_a)), len(re.split(r"(?<=a)(?=a)", long_a[:50])))
