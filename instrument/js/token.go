package js

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tName            // identifier or keyword (see token.kw)
	tPrivate         // #name
	tNum
	tBigInt
	tString
	tRegExp
	tTemplate       // `...` without substitutions
	tTemplateHead   // `...${
	tTemplateMiddle // }...${
	tTemplateTail   // }...`

	tLBrace
	tRBrace
	tLParen
	tRParen
	tLBrack
	tRBrack
	tDot
	tEllipsis
	tSemi
	tComma
	tQuestion
	tQDot // ?.
	tColon
	tArrow
	tAt // @ (decorators)
	tBang
	tTilde
	tInc
	tDec

	// Binary operators, in a block so that precedence is a table lookup.
	tNullish
	tOr
	tAnd
	tPipe
	tCaret
	tAmp
	tEq2
	tNe
	tEq3
	tNe2
	tLt
	tGt
	tLe
	tGe
	tShl
	tShr
	tUShr
	tPlus
	tMinus
	tStar
	tSlash
	tPercent
	tStar2

	// Assignment operators.
	tAssign
	tPlusEq
	tMinusEq
	tStarEq
	tSlashEq
	tPercentEq
	tStar2Eq
	tShlEq
	tShrEq
	tUShrEq
	tAmpEq
	tPipeEq
	tCaretEq
	tAndEq
	tOrEq
	tNullishEq
)

var tokText = [...]string{
	tEOF: "end of file", tName: "identifier", tPrivate: "private name", tNum: "number",
	tBigInt: "BigInt", tString: "string", tRegExp: "regular expression",
	tTemplate: "template", tTemplateHead: "template", tTemplateMiddle: "template", tTemplateTail: "template",
	tLBrace: "{", tRBrace: "}", tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]",
	tDot: ".", tEllipsis: "...", tSemi: ";", tComma: ",", tQuestion: "?", tQDot: "?.",
	tColon: ":", tArrow: "=>", tAt: "@", tBang: "!", tTilde: "~", tInc: "++", tDec: "--",
	tNullish: "??", tOr: "||", tAnd: "&&", tPipe: "|", tCaret: "^", tAmp: "&",
	tEq2: "==", tNe: "!=", tEq3: "===", tNe2: "!==", tLt: "<", tGt: ">", tLe: "<=", tGe: ">=",
	tShl: "<<", tShr: ">>", tUShr: ">>>", tPlus: "+", tMinus: "-", tStar: "*", tSlash: "/",
	tPercent: "%", tStar2: "**",
	tAssign: "=", tPlusEq: "+=", tMinusEq: "-=", tStarEq: "*=", tSlashEq: "/=", tPercentEq: "%=",
	tStar2Eq: "**=", tShlEq: "<<=", tShrEq: ">>=", tUShrEq: ">>>=", tAmpEq: "&=", tPipeEq: "|=",
	tCaretEq: "^=", tAndEq: "&&=", tOrEq: "||=", tNullishEq: "??=",
}

func (k tokKind) String() string { return tokText[k] }

func isAssignOp(k tokKind) bool { return k >= tAssign && k <= tNullishEq }

// binPrec is the precedence of binary operator tokens (0: not binary).
var binPrec = [...]int8{
	tNullish: 1, tOr: 2, tAnd: 3, tPipe: 4, tCaret: 5, tAmp: 6,
	tEq2: 7, tNe: 7, tEq3: 7, tNe2: 7,
	tLt: 8, tGt: 8, tLe: 8, tGe: 8,
	tShl: 9, tShr: 9, tUShr: 9,
	tPlus: 10, tMinus: 10,
	tStar: 11, tSlash: 11, tPercent: 11,
	tStar2:     12,
	tNullishEq: 0,
}

// keyword identifies reserved and contextual words of a tName token.
type keyword uint8

const (
	kwNone keyword = iota
	// Reserved words.
	kwAwait
	kwBreak
	kwCase
	kwCatch
	kwClass
	kwConst
	kwContinue
	kwDebugger
	kwDefault
	kwDelete
	kwDo
	kwElse
	kwEnum
	kwExport
	kwExtends
	kwFalse
	kwFinally
	kwFor
	kwFunction
	kwIf
	kwImport
	kwIn
	kwInstanceof
	kwNew
	kwNull
	kwReturn
	kwSuper
	kwSwitch
	kwThis
	kwThrow
	kwTrue
	kwTry
	kwTypeof
	kwVar
	kwVoid
	kwWhile
	kwWith
	kwYield
	// Strict mode reserved words.
	kwImplements
	kwInterface
	kwLet
	kwPackage
	kwPrivate
	kwProtected
	kwPublic
	kwStatic
	// Contextual words.
	kwAs
	kwAsync
	kwFrom
	kwGet
	kwMeta
	kwOf
	kwSet
	kwTarget
	kwConstructor
	kwArguments
	kwEval
	kwUsing
	kwDefer
	kwSource
)

func lookupKeyword(s string) keyword {
	if len(s) < 2 || len(s) > 11 || s[0] < 'a' || s[0] > 'y' {
		return kwNone
	}
	switch s {
	case "await":
		return kwAwait
	case "break":
		return kwBreak
	case "case":
		return kwCase
	case "catch":
		return kwCatch
	case "class":
		return kwClass
	case "const":
		return kwConst
	case "continue":
		return kwContinue
	case "debugger":
		return kwDebugger
	case "default":
		return kwDefault
	case "delete":
		return kwDelete
	case "do":
		return kwDo
	case "else":
		return kwElse
	case "enum":
		return kwEnum
	case "export":
		return kwExport
	case "extends":
		return kwExtends
	case "false":
		return kwFalse
	case "finally":
		return kwFinally
	case "for":
		return kwFor
	case "function":
		return kwFunction
	case "if":
		return kwIf
	case "import":
		return kwImport
	case "in":
		return kwIn
	case "instanceof":
		return kwInstanceof
	case "new":
		return kwNew
	case "null":
		return kwNull
	case "return":
		return kwReturn
	case "super":
		return kwSuper
	case "switch":
		return kwSwitch
	case "this":
		return kwThis
	case "throw":
		return kwThrow
	case "true":
		return kwTrue
	case "try":
		return kwTry
	case "typeof":
		return kwTypeof
	case "var":
		return kwVar
	case "void":
		return kwVoid
	case "while":
		return kwWhile
	case "with":
		return kwWith
	case "yield":
		return kwYield
	case "implements":
		return kwImplements
	case "interface":
		return kwInterface
	case "let":
		return kwLet
	case "package":
		return kwPackage
	case "private":
		return kwPrivate
	case "protected":
		return kwProtected
	case "public":
		return kwPublic
	case "static":
		return kwStatic
	case "as":
		return kwAs
	case "async":
		return kwAsync
	case "from":
		return kwFrom
	case "get":
		return kwGet
	case "meta":
		return kwMeta
	case "of":
		return kwOf
	case "set":
		return kwSet
	case "target":
		return kwTarget
	case "constructor":
		return kwConstructor
	case "arguments":
		return kwArguments
	case "eval":
		return kwEval
	case "using":
		return kwUsing
	case "defer":
		return kwDefer
	case "source":
		return kwSource
	}
	return kwNone
}

// isReserved reports words that can never be identifiers (await and yield
// depend on context and are not included).
func (k keyword) isReserved() bool { return k >= kwBreak && k <= kwWith }

// isStrictReserved reports the words reserved in strict code only.
func (k keyword) isStrictReserved() bool { return k >= kwImplements && k <= kwStatic || k == kwYield }
