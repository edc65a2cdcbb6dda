% strings print raw, without quotes
print "hello"
print "two words"
print ""
print "con" + "cat"
s = "x"
s = s + "y" + "z"
print s
print sprintf("%d items", 3)
print sprintf("%5.2f|%s", 3.14159, "ok")
% backslash is an ordinary character in a string; printf/sprintf formats read \t \n \r \\
print "tab:\tend"
print "H:\out\"
print sprintf("a\tb|c\\d|\q")
printf("e\tf\n")
