// The product catalog of a food and household-goods distributor: groups (each one a discount
// category code), subgroups, product lines and their packs. Products are drawn as
// line + variant + brand + size + pack, which gives tens of thousands of plausible items.

export type Unidade = 'UN' | 'CX' | 'FD' | 'KG' | 'L';

export interface Pack {
  unidade: Unidade;
  /** Appended to the description ('' for a single unit). */
  label: string;
  /** How many base units the pack holds; prices and weights scale with it. */
  units: number;
}

export interface SubgroupWords {
  name: string;
  /** A line's own sizes, when they differ from the subgroup's. */
  lines: readonly { base: string; variants: readonly string[]; sizes?: readonly string[] }[];
  sizes: readonly string[];
  packs: readonly Pack[];
  /** Price range of one base unit, in centavos. */
  unitPrice: readonly [number, number];
  /** Weight of one base unit, kg. */
  unitWeight: number;
}

export interface GroupWords {
  categoria: string;
  name: string;
  brands: readonly string[];
  /** Share of the catalog. */
  weight: number;
  subgroups: readonly SubgroupWords[];
}

const UN: Pack = { unidade: 'UN', label: '', units: 1 };
const CX12: Pack = { unidade: 'CX', label: 'Cx 12 un', units: 12 };
const CX24: Pack = { unidade: 'CX', label: 'Cx 24 un', units: 24 };
const FD6: Pack = { unidade: 'FD', label: 'Fd 6 un', units: 6 };
const FD10: Pack = { unidade: 'FD', label: 'Fd 10 un', units: 10 };
const KG: Pack = { unidade: 'KG', label: 'Granel', units: 1 };
const L: Pack = { unidade: 'L', label: 'Granel', units: 1 };

export const CATALOG: readonly GroupWords[] = [
  {
    categoria: 'BEB',
    name: 'Bebidas',
    brands: ['Coroa', 'Guaraçaí', 'Tropical', 'Frevo', 'Brisa', 'Serrana', 'Cachoeira', 'Praia Brava', 'Sertãozinho'],
    weight: 22,
    subgroups: [
      {
        name: 'Refrigerantes',
        lines: [
          { base: 'Refrigerante', variants: ['Cola', 'Guaraná', 'Laranja', 'Limão', 'Uva', 'Tônica', 'Cola Zero'] },
        ],
        sizes: ['Lata 350ml', '600ml', '1L', '2L', '2,5L'],
        packs: [UN, FD6, CX12],
        unitPrice: [250, 1190],
        unitWeight: 1.1,
      },
      {
        name: 'Águas',
        lines: [{ base: 'Água Mineral', variants: ['sem Gás', 'com Gás', 'Alcalina'] }],
        sizes: ['500ml', '1,5L', '5L'],
        packs: [UN, FD6, CX12],
        unitPrice: [150, 890],
        unitWeight: 1.2,
      },
      {
        name: 'Sucos e Chás',
        lines: [
          { base: 'Suco', variants: ['Uva Integral', 'Laranja', 'Maracujá', 'Caju', 'Goiaba', 'Manga', 'Pêssego'] },
          { base: 'Chá Gelado', variants: ['Limão', 'Pêssego', 'Mate com Limão'], sizes: ['450ml', '1,5L'] },
        ],
        sizes: ['200ml', '1L', '1,5L'],
        packs: [UN, CX12, CX24],
        unitPrice: [199, 1490],
        unitWeight: 1,
      },
      {
        name: 'Cervejas',
        lines: [{ base: 'Cerveja', variants: ['Pilsen', 'Puro Malte', 'Lager', 'IPA', 'Weiss', 'Sem Álcool'] }],
        sizes: ['Lata 350ml', 'Long Neck 355ml', 'Garrafa 600ml', 'Latão 473ml'],
        packs: [UN, CX12, FD6],
        unitPrice: [299, 1290],
        unitWeight: 0.6,
      },
      {
        name: 'Chope e Granel',
        lines: [{ base: 'Chope', variants: ['Pilsen', 'Escuro', 'Vinho'] }],
        sizes: ['Barril 30L', 'Barril 50L'],
        packs: [L],
        unitPrice: [1290, 2490],
        unitWeight: 1,
      },
    ],
  },
  {
    categoria: 'MERC',
    name: 'Mercearia',
    brands: [
      'Tio Zé',
      'Dona Zefinha',
      'Fazendão',
      'Vovó Conceição',
      'Sabor do Sertão',
      'Grão de Ouro',
      'Bom Grão',
      'São João',
    ],
    weight: 30,
    subgroups: [
      {
        name: 'Grãos e Cereais',
        lines: [
          { base: 'Arroz', variants: ['Tipo 1', 'Parboilizado', 'Integral', 'Arbóreo'] },
          { base: 'Feijão', variants: ['Carioca', 'Preto', 'Fradinho', 'Macaçar'] },
          { base: 'Flocão de Milho', variants: ['Tradicional', 'Temperado'] },
        ],
        sizes: ['1kg', '2kg', '5kg'],
        packs: [UN, FD10],
        unitPrice: [499, 3490],
        unitWeight: 2,
      },
      {
        name: 'Massas',
        lines: [
          {
            base: 'Macarrão',
            variants: ['Espaguete', 'Parafuso', 'Penne', 'Talharim', 'Ave Maria', 'Padre Nosso'],
            sizes: ['500g', '1kg'],
          },
          { base: 'Macarrão Instantâneo', variants: ['Galinha', 'Carne', 'Legumes'], sizes: ['85g'] },
        ],
        sizes: ['85g', '500g', '1kg'],
        packs: [UN, FD10, CX24],
        unitPrice: [159, 899],
        unitWeight: 0.5,
      },
      {
        name: 'Açúcar e Café',
        lines: [
          { base: 'Açúcar', variants: ['Cristal', 'Refinado', 'Demerara', 'Mascavo'], sizes: ['1kg', '5kg'] },
          {
            base: 'Café',
            variants: ['Torrado e Moído', 'Extraforte', 'Tradicional', 'Gourmet'],
            sizes: ['250g', '500g'],
          },
        ],
        sizes: ['250g', '500g', '1kg', '5kg'],
        packs: [UN, FD10],
        unitPrice: [399, 3990],
        unitWeight: 1,
      },
      {
        name: 'Óleos e Condimentos',
        lines: [
          { base: 'Óleo de Soja', variants: ['Refinado'], sizes: ['900ml'] },
          { base: 'Azeite de Oliva', variants: ['Extravirgem', 'Tipo Único'], sizes: ['250ml', '500ml'] },
          { base: 'Vinagre', variants: ['de Álcool', 'de Maçã', 'de Vinho Tinto'], sizes: ['750ml'] },
          { base: 'Sal', variants: ['Refinado', 'Grosso', 'Rosa do Himalaia'], sizes: ['1kg'] },
        ],
        sizes: ['500ml', '900ml', '1kg'],
        packs: [UN, CX12, CX24],
        unitPrice: [219, 4990],
        unitWeight: 0.95,
      },
      {
        name: 'Enlatados e Conservas',
        lines: [
          { base: 'Milho Verde', variants: ['em Conserva'] },
          { base: 'Ervilha', variants: ['em Conserva'] },
          { base: 'Sardinha', variants: ['ao Óleo', 'ao Molho de Tomate', 'com Limão'] },
          { base: 'Extrato de Tomate', variants: ['Tradicional', 'Concentrado'] },
        ],
        sizes: ['170g', '200g', '340g'],
        packs: [UN, CX24],
        unitPrice: [249, 999],
        unitWeight: 0.3,
      },
      {
        name: 'Biscoitos',
        lines: [
          {
            base: 'Biscoito',
            variants: [
              'Cream Cracker',
              'Maizena',
              'Recheado Chocolate',
              'Água e Sal',
              'Rosquinha de Coco',
              'Wafer Morango',
            ],
          },
        ],
        sizes: ['140g', '200g', '400g'],
        packs: [UN, CX24],
        unitPrice: [199, 899],
        unitWeight: 0.25,
      },
    ],
  },
  {
    categoria: 'LIMP',
    name: 'Limpeza',
    brands: ['Brilhante Lar', 'Casa Limpa', 'Espuma Branca', 'Limpão', 'Girassol', 'Flor de Lótus', 'Alvejar'],
    weight: 16,
    subgroups: [
      {
        name: 'Lavanderia',
        lines: [
          { base: 'Sabão em Pó', variants: ['Multiação', 'Coco', 'Roupas Brancas'], sizes: ['500g', '1kg', '2kg'] },
          { base: 'Sabão Líquido', variants: ['Concentrado', 'Coco'], sizes: ['1L', '3L'] },
          {
            base: 'Amaciante',
            variants: ['Lavanda', 'Brisa do Campo', 'Tradicional', 'Toque de Seda'],
            sizes: ['2L', '5L'],
          },
        ],
        sizes: ['500g', '1kg', '2L', '5L'],
        packs: [UN, CX12],
        unitPrice: [599, 4590],
        unitWeight: 1.5,
      },
      {
        name: 'Cozinha',
        lines: [
          { base: 'Detergente Líquido', variants: ['Neutro', 'Limão', 'Maçã', 'Coco'], sizes: ['500ml'] },
          { base: 'Esponja Dupla Face', variants: ['Tradicional', 'Não Risca'], sizes: ['Pacote 3 un'] },
          { base: 'Lã de Aço', variants: ['Tradicional'], sizes: ['Pacote 8 un'] },
        ],
        sizes: ['500ml', 'Pacote 3 un', 'Pacote 8 un'],
        packs: [UN, CX24],
        unitPrice: [189, 899],
        unitWeight: 0.4,
      },
      {
        name: 'Limpeza da Casa',
        lines: [
          { base: 'Água Sanitária', variants: ['Tradicional', 'Perfumada'] },
          { base: 'Desinfetante', variants: ['Eucalipto', 'Lavanda', 'Pinho', 'Jasmim'] },
          { base: 'Limpador Multiuso', variants: ['Tradicional', 'Cloro Ativo'] },
          { base: 'Álcool', variants: ['70% Líquido', '70% Gel', '46,2% INPM'] },
        ],
        sizes: ['500ml', '1L', '2L', '5L'],
        packs: [UN, CX12],
        unitPrice: [299, 2490],
        unitWeight: 1.1,
      },
    ],
  },
  {
    categoria: 'HIG',
    name: 'Higiene e Perfumaria',
    brands: ['Pétala', 'Suave Toque', 'Natural Brasil', 'Dentalis', 'Bem-Estar', 'Aroma dos Campos', 'Lírio'],
    weight: 16,
    subgroups: [
      {
        name: 'Cabelos',
        lines: [
          { base: 'Xampu', variants: ['Cachos', 'Anticaspa', 'Hidratação', 'Lisos', 'Infantil'] },
          { base: 'Condicionador', variants: ['Cachos', 'Hidratação', 'Reconstrução'] },
        ],
        sizes: ['200ml', '350ml', '1L'],
        packs: [UN, CX12],
        unitPrice: [699, 2990],
        unitWeight: 0.4,
      },
      {
        name: 'Banho',
        lines: [
          {
            base: 'Sabonete',
            variants: ['Erva-doce', 'Aveia', 'Glicerina', 'Maracujá', 'Antibacteriano'],
            sizes: ['85g', 'Pack 4 un'],
          },
          { base: 'Desodorante Aerosol', variants: ['Masculino', 'Feminino', 'Sem Perfume'], sizes: ['150ml'] },
        ],
        sizes: ['85g', '150ml', 'Pack 4 un'],
        packs: [UN, CX12, CX24],
        unitPrice: [199, 1990],
        unitWeight: 0.15,
      },
      {
        name: 'Higiene Bucal',
        lines: [
          {
            base: 'Creme Dental',
            variants: ['Menta', 'Tripla Ação', 'Branqueador', 'Infantil Morango'],
            sizes: ['50g', '90g'],
          },
          { base: 'Escova Dental', variants: ['Macia', 'Média', 'Infantil'], sizes: ['1 un', 'Pack 2 un'] },
        ],
        sizes: ['50g', '90g', 'Pack 2 un'],
        packs: [UN, CX12],
        unitPrice: [299, 1590],
        unitWeight: 0.1,
      },
      {
        name: 'Papel e Descartáveis',
        lines: [
          {
            base: 'Papel Higiênico Folha Dupla',
            variants: ['Neutro', 'Perfumado'],
            sizes: ['4 rolos', '12 rolos', '16 rolos'],
          },
          {
            base: 'Fralda Descartável',
            variants: ['P', 'M', 'G', 'XG'],
            sizes: ['Pacote 30 un', 'Pacote Econômico 60 un'],
          },
          { base: 'Absorvente', variants: ['com Abas', 'Noturno'], sizes: ['8 un', '16 un'] },
        ],
        sizes: ['4 rolos', '12 rolos', 'Pacote Econômico'],
        packs: [UN, FD6],
        unitPrice: [499, 5990],
        unitWeight: 0.8,
      },
    ],
  },
  {
    categoria: 'FRIO',
    name: 'Frios e Laticínios',
    brands: [
      'Vale Verde',
      'Fazenda São Lourenço',
      'Laticínios Ouro Branco',
      'Sadio Sul',
      'Serra da Canastra',
      'Granja Bom Retiro',
    ],
    weight: 12,
    subgroups: [
      {
        name: 'Laticínios',
        lines: [
          { base: 'Requeijão Cremoso', variants: ['Tradicional', 'Light'], sizes: ['200g'] },
          { base: 'Manteiga', variants: ['com Sal', 'sem Sal'], sizes: ['200g', '500g'] },
          { base: 'Iogurte', variants: ['Morango', 'Natural', 'Coco', 'Ameixa'], sizes: ['170g', '900g'] },
          { base: 'Leite UHT', variants: ['Integral', 'Desnatado', 'Semidesnatado'], sizes: ['1L'] },
        ],
        sizes: ['170g', '200g', '1L'],
        packs: [UN, CX12],
        unitPrice: [349, 1890],
        unitWeight: 0.5,
      },
      {
        name: 'Queijos e Embutidos',
        lines: [
          { base: 'Queijo', variants: ['Mussarela', 'Prato', 'Coalho', 'Minas Padrão', 'Parmesão'] },
          { base: 'Presunto', variants: ['Cozido', 'Defumado'] },
          { base: 'Mortadela', variants: ['Tradicional', 'Defumada', 'com Azeitona'] },
          { base: 'Linguiça', variants: ['Calabresa', 'Toscana', 'de Frango'] },
        ],
        sizes: ['Peça', 'Fatiado'],
        packs: [KG],
        unitPrice: [1990, 7990],
        unitWeight: 1,
      },
      {
        name: 'Congelados',
        lines: [
          { base: 'Pão de Queijo', variants: ['Tradicional', 'Coquetel'], sizes: ['400g', '1kg'] },
          { base: 'Lasanha', variants: ['Bolonhesa', 'Quatro Queijos', 'Frango'], sizes: ['600g'] },
          { base: 'Hambúrguer', variants: ['Bovino', 'de Frango'], sizes: ['672g 12 un'] },
          { base: 'Polpa de Fruta', variants: ['Acerola', 'Cajá', 'Graviola', 'Maracujá'] },
        ],
        sizes: ['400g', '600g', '1kg'],
        packs: [UN, CX12],
        unitPrice: [499, 2490],
        unitWeight: 0.7,
      },
    ],
  },
  {
    categoria: 'BOMB',
    name: 'Bomboniere',
    brands: ['Doce Sabor', 'Cacau do Sul', 'Fábrica de Balas Brasília', 'Paçoquinha da Vó'],
    weight: 4,
    subgroups: [
      {
        name: 'Chocolates e Doces',
        lines: [
          {
            base: 'Chocolate',
            variants: ['ao Leite', 'Meio Amargo', 'Branco', 'com Castanha-do-Pará'],
            sizes: ['20g', '90g'],
          },
          { base: 'Paçoca', variants: ['Rolha', 'Quadrada'], sizes: ['Pote 50 un'] },
          { base: 'Bala', variants: ['Menta', 'Goma', 'Café', 'Leite'], sizes: ['Pacote 600g'] },
        ],
        sizes: ['20g', '90g', 'Pote 50 un'],
        packs: [UN, CX24],
        unitPrice: [99, 2490],
        unitWeight: 0.1,
      },
    ],
  },
];
