"""paddle's backward formulas by grad-node name: what each forward grad node's
gradient formulas read besides the incoming gradient (torch's ``derivatives.yaml``
stated per node, for paddle 3.3.1's node names), which nodes cut dependence (rule 14),
and which formulas are linear or polynomial in what they read. The tables
`_structure`'s walks read; no code."""

from __future__ import annotations

__all__ = [
    "COMPLEX_PIECEWISE",
    "CUT_NODES",
    "LINEAR",
    "LINEAR_READS",
    "PIECEWISE_LINEAR",
    "POLYNOMIAL",
    "PRODUCT_DOUBLE",
    "PRODUCT_FORWARD",
    "READS",
]

#: Forward grad nodes whose backward formulas read nothing but the incoming gradient
#: (linear in it, with constant or non-differentiable coefficients: ``where``'s
#: condition, a mask, an index, a scale factor).
LINEAR = frozenset(
    {
        "AddGradNode",
        "SubtractGradNode",
        "ScaleGradNode",
        "ReshapeGradNode",
        "TransposeGradNode",
        "UnsqueezeGradNode",
        "SqueezeGradNode",
        "FlattenGradNode",
        "ViewShapeGradNode",
        "StackGradNode",
        "ConcatGradNode",
        "SliceGradNode",
        "StridedSliceGradNode",
        "SumGradNode",
        "MeanGradNode",
        "MaskedSelectGradNode",
        "WhereGradNode",
        "RealGradNode",
        "ImagGradNode",
        "ConjGradNode",
        "ComplexGradNode",
        "CastGradNode",
        "AssignGradNode",
        "ExpandGradNode",
        "IndexSelectGradNode",
        "GatherGradNode",
        "GatherNdGradNode",
        # tensor indexing (``x[idx]``, the namespace's ``take`` on paddle 3.3.1): a
        # scatter-add of the incoming gradient at the index
        "IndexElementwiseGetGradNode",
        # flip and roll: their backward is the same permutation of the incoming gradient
        # (an unknown flip node read everything, so the constant gradient of
        # x * astype(isnan(x)) through a flip required grad: test_dependence.py::
        # test_a_permutation_of_a_masked_product_stays_a_constant)
        "FlipGradNode",
        "RollGradNode",
        # take_along_axis (the namespace's sort on paddle), tile and repeat: a scatter-add
        # or sum of the incoming gradient
        # (test_tile_repeat_and_take_along_axis_are_linear_in_the_gradient in
        # test_differential_extensions.py: unknown nodes read everything, so constant
        # gradients required grad)
        "TakeAlongAxisGradNode",
        "TileGradNode",
        "RepeatInterleaveGradNode",
        # unbind and split (the namespace's cumulative products of paddle: a stack or
        # concat of the incoming gradients; an unknown node made the constant gradient of
        # cumulative_prod over a length-1 axis require grad:
        # test_a_cumulative_product_over_one_element_is_linear in test_dependence.py)
        "UnbindGradNode",
        "SplitGradNode",
        "SplitWithNumGradNode",
        # the double-grad nodes of those ops (in a create_graph result's graph, which a
        # later call walks): the same linear map of the incoming gradient-of-gradient
        "AddDoubleGradNode",
        "AddTripleGradNode",
        "SubtractDoubleGradNode",
        "ReshapeDoubleGradNode",
        "TransposeDoubleGradNode",
        "UnsqueezeDoubleGradNode",
        "SqueezeDoubleGradNode",
        "ViewShapeDoubleGradNode",
        "StackDoubleGradNode",
        "ConcatDoubleGradNode",
        "SliceDoubleGradNode",
        "SumDoubleGradNode",
        "MeanDoubleGradNode",
        "MaskedSelectDoubleGradNode",
        "WhereDoubleGradNode",
        "ExpandDoubleGradNode",
        "IndexSelectDoubleGradNode",
        "GatherDoubleGradNode",
        "GatherNdDoubleGradNode",
        "IndexElementwiseGetDoubleGradNode",
        # (the namespace's take_along_axis, tile and repeat: read as unknown, a constant
        # second derivative through take_along_axis required grad, differential seed
        # 6078, program 2930)
        "TakeAlongAxisDoubleGradNode",
        "TileDoubleGradNode",
        "RepeatInterleaveDoubleGradNode",
    }
)

#: Rule 14 ("Dependence" in ``docs/semantics.md``): paddle's grad nodes of ops whose
#: derivative is identically zero. paddle 3.3.1 follows them and gives zeros; a walk
#: (`_structure._Walk`, `_cuts._reachable`) does not enter them, so an input
#: reached only through them is unused.
CUT_NODES = frozenset(
    {"SignGradNode", "FloorGradNode", "CeilGradNode", "RoundGradNode", "TruncGradNode"}
)

#: Rule 14: forward grad nodes of piecewise-linear ops, whose formulas read the input
#: only through a mask or a sign (derivative identically zero): linear in the incoming
#: gradient, as `LINEAR`. Complex ``abs`` reads ``z / |z|``, which has a derivative:
#: in a call with complex tensors its node (`COMPLEX_PIECEWISE`) is an unknown one. The
#: others have no complex kernel in paddle 3.3.1 (measured: ``maximum``, ``clip``,
#: ``max``, ``relu``, ... of a complex tensor raise ``NotFound``), so they are linear in
#: any call (a complex output beside them left ``maximum``'s constant gradient requiring
#: grad: test_a_piecewise_linear_gradient_beside_a_complex_output_is_a_constant in
#: test_dependence.py).
PIECEWISE_LINEAR = frozenset(
    {
        "AbsGradNode",
        "ClipGradNode",
        "MaximumGradNode",
        "MinimumGradNode",
        "MaxGradNode",
        "MinGradNode",
        "AmaxGradNode",
        "AminGradNode",
        "ReluGradNode",
        "HardtanhGradNode",
        "LeakyReluGradNode",
    }
)

#: The nodes of `PIECEWISE_LINEAR` whose op has a complex kernel (linear only in a real
#: call).
COMPLEX_PIECEWISE = frozenset({"AbsGradNode"})

#: Forward grad node name -> for each edge ``j`` (the gradient sent to input ``j``),
#: what its formula reads besides the incoming gradient: input indices, and ``-1`` for
#: the node's output (torch's formulas: tanh and exp read their result, sin and cos
#: their input, ``a / b`` reads ``b`` for ``a`` and both for ``b``).
READS: dict[str, tuple[tuple[int, ...], ...]] = {
    "MultiplyGradNode": ((1,), (0,)),
    "MatmulGradNode": ((1,), (0,)),
    "DivideGradNode": ((1,), (0, 1)),
    "ExpGradNode": ((-1,),),
    "TanhGradNode": ((-1,),),
    "SigmoidGradNode": ((-1,),),
    "SqrtGradNode": ((-1,),),
    "SinGradNode": ((0,),),
    "CosGradNode": ((0,),),
    "LogGradNode": ((0,),),
    "SquareGradNode": ((0,),),
    "PNormGradNode": ((0, -1),),
    # the double-grad nodes of a product (in a create_graph result's graph, which a later
    # call walks), edges (x, y, g) for ``x_grad = g * y`` and ``y_grad = g * x``: x's
    # edge carries ``ggy * g``, y's ``ggx * g``, g's ``ggx * y + ggy * x`` (read as
    # unknown nodes, the constant derivative of a gradient linear in the input required
    # grad: differential seed 402, program 218; see also `_live_edges`)
    "MultiplyDoubleGradNode": ((2,), (2,), (0, 1)),
    "MatmulDoubleGradNode": ((2,), (2,), (0, 1)),
}

#: The reads of `READS` in which an edge's formula is linear (a product of the incoming
#: gradient and the read, or a sum of such products: ``x * y``'s edge to ``x`` is
#: ``g * y``, ``exp``'s is ``g * out``, ``square``'s ``2 g x``); every other read (``1 / b``,
#: ``1 - out**2``, ``cos(x)``, an unknown node's) is not. A recorded result's record says
#: which of its roots its derivative reads (`_derivative_reads`).
LINEAR_READS: dict[str, tuple[tuple[int, ...], ...]] = {
    "MultiplyGradNode": ((1,), (0,)),
    "MatmulGradNode": ((1,), (0,)),
    "ExpGradNode": ((-1,),),
    "SquareGradNode": ((0,),),
    "MultiplyDoubleGradNode": ((2,), (2,), (0, 1)),
    "MatmulDoubleGradNode": ((2,), (2,), (0, 1)),
}

#: Double-grad nodes of a product whose edge to the operand that required grad is dead
#: when the other operand did not (`_structure._live_edges`).
PRODUCT_DOUBLE = frozenset({"MultiplyDoubleGradNode"})

#: Their forward grad nodes: where one operand is a constant, the gradient toward the
#: other reads nothing that requires grad, but the double-grad node that paddle builds
#: for it keeps its edge to that operand, so a ``create_graph`` result's graph reaches
#: the operand's graph (`_structure._Walk._reads`: a node paddle reaches that no
#: formula reads; ``d(sum(x * x - (x + a) * m))/dx`` reached ``a``).
PRODUCT_FORWARD = frozenset({"MultiplyGradNode"})

#: Forward and double-grad nodes whose formulas are polynomials of finite degree in what
#: they read (linear: `LINEAR_READS`), for `_structure._Walk.polynomial`.
POLYNOMIAL = frozenset(
    {
        "MultiplyGradNode",
        "MatmulGradNode",
        "SquareGradNode",
        "MultiplyDoubleGradNode",
        "MatmulDoubleGradNode",
    }
)
