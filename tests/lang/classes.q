% Classes as published Quasar code writes them (issue 21, item 4): `type p : mutable class`
% with typed fields and defaults, `p(x:=1, y:=2)`, field read/write, `^p` pointer fields and
% nullptr, objects passed to and returned from functions (shared, as arrays are).
type point : mutable class
    x : int
    y : scalar = 2.5
    label : string
endtype

type frozen : class
    a : int
    b : vec
end

type node : mutable class
    val : int
    next : ^node
end

function p = moved(p : point, dx : int)
    p.x += dx           % the caller's object: objects are references
end

function q : point = mirrored(p : point)
    q = point(x:=-p.x, y:=-p.y, label:=p.label + "'")
end

function n = list_of(v : vec)
    n = nullptr
    for i = numel(v)-1..-1..0
        n = node(val:=int(v[i]), next:=n)
    end
end

function s = list_sum(n : ^node)
    s = 0
    while n != nullptr
        s += n.val
        n = n.next
    end
end

function [] = main()
    p = point(x:=1, y:=2)
    assert(p.x == 1 && p.y == 2 && p.label == "")
    p.x = 3
    p.y += 0.5
    assert(p.x == 3 && p.y == 2.5)
    p.y = 7                       % converted to the field's type (scalar)
    assert(p.y == 7)

    d = point(x:=5)               % y takes its default
    assert(d.y == 2.5)
    e = point(4, 1.5, "e")        % positional: the fields in order
    assert(e.x == 4 && e.y == 1.5 && e.label == "e")

    q = p                         % shared, not copied
    q.x = 10
    assert(p.x == 10)
    moved(p, 5)
    assert(p.x == 15)
    m = mirrored(p)
    assert(m.x == -15 && m.y == -7 && m.label == "'")
    assert(p == q && p != m)

    f = frozen(a:=2, b:=[1, 2, 3])
    assert(f.a + sum(f.b) == 8)
    f.b[0] = 10                   % an immutable object's array is still an array
    assert(f.b[0] == 10)

    % a linked list through ^node fields, against a plain sum
    v = [4, 8, 15, 16, 23, 42]
    head = list_of(v)
    assert(list_sum(head) == sum(v))
    assert(head.next.next.val == 15)
    k = 0
    n = head
    while n != nullptr
        n = n.next
        k += 1
    end
    assert(k == numel(v))
    t = node(val:=1)
    assert(t.next == nullptr && isempty(t.next))

    % arrays of objects
    pts = vec[point](4)
    assert(numel(pts) == 4 && pts[0] == nullptr)
    for i = 0..3
        pts[i] = point(x:=i, y:=i*i)
    end
    pts[2].x = 20
    total = 0
    for i = 0..3
        total += pts[i].x + pts[i].y
    end
    assert(total == (0 + 1 + 20 + 3) + (0 + 1 + 4 + 9))

    % a dynamic object and a typed field assignment
    params = object()
    params.a : scalar = 1.45
    params.n : int = 3.0
    params.name = "x"
    assert(abs(params.a - 1.45) < 1e-6 && params.n == 3 && params.name == "x")
    params.a += 1
    assert(abs(params.a - 2.45) < 1e-6)
    % a callback with a `;`-terminated body sets a field (published UI code's form)
    slider = object()
    slider.value = 0.25
    onchange = () -> (params.a = slider.value; params.n += 1;)
    onchange()
    assert(params.a == 0.25 && params.n == 4)
    print "classes ok"
end
