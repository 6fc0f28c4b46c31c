#!/bin/sh
# Counts a cuobjdump -sass listing's instructions per kernel and pipe class: MUFU (special),
# F* fp32 (FFMA FMUL FADD FSETP FSEL FMNMX FCHK ...), D* fp64, branches, everything else
# (integer, moves, predicates). NOPs and EXIT are left out.
awk '
/Function :/ { fn = $3; next }
/^ *\/\*[0-9a-f]+\*\// {
  op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); split(op, p, ".");
  o = p[1];
  if (o == "NOP" || o == "EXIT" || o == "") next;
  c = "int";
  if (o == "MUFU") c = "mufu";
  else if (o ~ /^(FFMA|FMUL|FADD|FSETP|FSEL|FMNMX|FCHK|FRND|FSET|FSWZADD|F2F|F2I|I2F|HADD2|HFMA2)$/) c = "fp32";
  else if (o ~ /^(DFMA|DMUL|DADD|DSETP|DMNMX)$/) c = "fp64";
  else if (o ~ /^(BRA|BSSY|BSYNC|CALL|RET|JMP|BMOV|WARPSYNC)$/) c = "branch";
  else if (o ~ /^(LDG|STG|LDC|ULDC|LDS|STS)$/) c = "mem";
  n[fn " " c]++; fns[fn] = 1
}
END { for (f in fns) printf "%s mufu=%d fp32=%d fp64=%d int=%d branch=%d mem=%d\n", f, n[f " mufu"], n[f " fp32"], n[f " fp64"], n[f " int"], n[f " branch"], n[f " mem"] }' | sort
