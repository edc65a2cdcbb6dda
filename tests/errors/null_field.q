% EXPECT: 1 ^tests/errors/null_field\.q:7:(7|9): runtime error: field 'val' of nullptr
type node : mutable class
    val : int
    next : ^node
end
n = node(val:=1)
print n.next.val
