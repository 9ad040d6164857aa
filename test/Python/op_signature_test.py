"""Operator signatures of kernels, from their kernel info alone (host
only, no torch: op-signature.test): which arguments are inputs, outputs and
mutated, the torch.library schema, where each output size comes from, the
contracts as Python reads them, and what cannot be an operator.
"""
import tile_mlir as tm

RECORDS = """tile-kernel-info 1
kernel softmax
block 256 1 1
smem 0
grid 0 0 0 2
param memref 0 f16 2
param memref 1 f16 2
access 0 read
access 1 write
require 1 0 eq 0 0 0 Y X
require 1 1 eq 0 1 0 Y X
require 0 1 le -1 0 4096 X -
end
kernel attention
block 256 1 1
smem 0
param memref 0 f16 4
param memref 1 f16 4
param memref 2 f16 4
param scalar 3 f32
access 0 read
access 1 read
access 2 write
require 2 0 eq 0 0 0 O Q
require 0 1 eq 2 1 0 Q O
require 2 2 eq 0 2 0 O Q
require 2 3 eq -1 0 64 O -
end
kernel axpy
block 128 1 1
smem 0
param memref 0 f32 1
param memref 1 f32 1
param scalar 2 i32
access 0 read
access 1 readwrite
require 1 0 eq 0 0 0 y x
end
kernel loose
block 128 1 1
smem 0
param memref 0 f32 2
param memref 1 f32 2
access 0 read
access 1 write
require 1 0 eq 0 0 0 Y X
require 1 1 le 0 1 0 Y X
end
kernel old
block 128 1 1
smem 0
param memref 0 f32 1
param memref 1 f32 1
require 1 0 eq 0 0 0 Y X
end
"""

for desc in tm.kernel_info(RECORDS):
    print(f"{desc.name}: contracts",
          "; ".join(str(c) for c in desc.contracts) or "none")
    try:
        sig = tm.op_signature(desc)
        print(f"  schema {desc.name}{sig.schema}")
        print(f"  inputs {sig.inputs} outputs {sig.outputs} mutated "
              f"{sig.mutated} shapes {sig.shapes}")
    except tm.OpSignatureError as e:
        print("  OpSignatureError:", e)

old = tm.kernel_info(RECORDS)[-1]
sig = tm.op_signature(old, outputs=[1])
print(f"old with outputs=[1]: {sig.schema} shapes {sig.shapes}")
for bad in ([2], [5]):
    try:
        tm.op_signature(old, outputs=bad)
    except tm.OpSignatureError as e:
        print(f"outputs={bad}: OpSignatureError:", e)
